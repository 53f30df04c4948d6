import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTraceFile, TraceFileRefusedError } from '../src/temporal/trace-file.js';
import { MAX_TRACE_BYTES } from '../src/temporal/trace-reader.js';

const never = new AbortController().signal;

/** Settles `promise`, or rejects after `ms`: a read that blocks fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const refusal = async (p: Promise<unknown>) => {
  const err = await within(p, 2_000).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TraceFileRefusedError);
  return err as TraceFileRefusedError;
};

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-trace-file-'));
  mkdirSync(path.join(dir, 'traces', 'wf'), { recursive: true });
  return dir;
}

describe('readTraceFile', () => {
  it('reads a plain trace file through its handle', async () => {
    const dir = folder();
    const file = path.join(dir, 'traces', 'wf', 'r.json');
    writeFileSync(file, '{"version":1,"é":true}');
    expect(await readTraceFile(file, MAX_TRACE_BYTES, never)).toBe('{"version":1,"é":true}');
    writeFileSync(file, '');
    expect(await readTraceFile(file, MAX_TRACE_BYTES, never)).toBe('');
  });

  it('refuses a FIFO at once, and many such reads leave the thread pool free', async () => {
    const dir = folder();
    const fifo = path.join(dir, 'traces', 'wf', 'r.json');
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    // More reads than libuv has threads (4): a read that blocked would hold them all.
    const reads = Array.from({ length: 8 }, () => refusal(readTraceFile(fifo, MAX_TRACE_BYTES, never)));
    for (const err of await Promise.all(reads)) expect(err.reason).toBe('not-regular');
    expect(performance.now() - started).toBeLessThan(2_000);
    // File-system work (thread-pool work) still runs.
    const other = path.join(dir, 'other.txt');
    writeFileSync(other, 'ok');
    expect(await within(readFile(other, 'utf8'), 2_000)).toBe('ok');
  });

  it('refuses a hard link, even one inside the folder that points at a file outside it', async () => {
    const dir = folder();
    const secret = path.join(dir, 'secret.json');
    writeFileSync(secret, '{"secret":true}');
    const linked = path.join(dir, 'traces', 'wf', 'r.json');
    linkSync(secret, linked);
    expect((await refusal(readTraceFile(linked, MAX_TRACE_BYTES, never))).reason).toBe('linked');
    expect(readFileSync(secret, 'utf8')).toBe('{"secret":true}');
  });

  it('refuses a file over the limit without reading it', async () => {
    const dir = folder();
    const big = path.join(dir, 'traces', 'wf', 'r.json');
    writeFileSync(big, '');
    // Sparse: one byte over the API's 50 MiB limit costs neither disk nor time; read whole, it would cost the memory.
    truncateSync(big, MAX_TRACE_BYTES + 1);
    const before = process.memoryUsage().arrayBuffers;
    const err = await refusal(readTraceFile(big, MAX_TRACE_BYTES, never));
    expect(err.reason).toBe('too-large');
    expect(err.message).toContain(String(MAX_TRACE_BYTES + 1));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(MAX_TRACE_BYTES / 2);
    const small = path.join(dir, 'traces', 'wf', 'small.json');
    writeFileSync(small, 'x'.repeat(11));
    expect((await refusal(readTraceFile(small, 10, never))).reason).toBe('too-large');
    expect(await readTraceFile(small, 11, never)).toBe('x'.repeat(11));
  });

  it('refuses a symbolic link and a folder', async () => {
    const dir = folder();
    const target = path.join(dir, 'traces', 'wf', 'real.json');
    writeFileSync(target, '{}');
    const link = path.join(dir, 'traces', 'wf', 'r.json');
    symlinkSync(target, link);
    expect((await refusal(readTraceFile(link, MAX_TRACE_BYTES, never))).reason).toBe('symlink');
    expect((await refusal(readTraceFile(path.join(dir, 'traces', 'wf'), MAX_TRACE_BYTES, never))).reason).toBe('not-regular');
  });

  it("stops at the request's abort signal", async () => {
    const dir = folder();
    const file = path.join(dir, 'traces', 'wf', 'r.json');
    writeFileSync(file, '{}');
    const gone = new AbortController();
    gone.abort(new Error('client went away'));
    await expect(readTraceFile(file, MAX_TRACE_BYTES, gone.signal)).rejects.toThrow('client went away');
    await expect(readTraceFile(path.join(dir, 'missing.json'), MAX_TRACE_BYTES, never)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
