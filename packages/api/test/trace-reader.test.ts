import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TraceReader, type TraceRun } from '../src/temporal/trace-reader.js';
import { traceFilePath } from '@skein/names/traces';

const never = new AbortController().signal;
const noRemote = () => Promise.reject(new Error('not asked'));

/** A trace folder holding the trace file of one root run, and that run as trace-log sees it. */
function tracedRun(catalog: string): { dir: string; run: TraceRun } {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-trace-reader-'));
  const root = { workflowId: 'wf', runId: 'r1' };
  const file = traceFilePath(dir, root);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, root }));
  return { dir, run: { ...root, root, taskQueue: catalog, destinations: { local: file } } };
}

describe('TraceReader, local destination', () => {
  it("reads the run's file in the folder its catalog's current build advertises", async () => {
    const { dir, run } = tracedRun('main');
    const reader = new TraceReader(async () => [dir], { traceDir: null, traceS3: null });
    expect(await reader.read(run, noRemote, never)).toEqual({ source: 'local', location: run.destinations.local, data: { version: 1, root: run.root } });
  });

  it('takes only absolute, normalized folders from a document, even when the memo names its file through one', async () => {
    const { dir, run } = tracedRun('main');
    for (const odd of [`${dir}/../${path.basename(dir)}`, `${path.dirname(dir)}//${path.basename(dir)}`, path.relative(process.cwd(), dir)]) {
      const reader = new TraceReader(async () => [odd], { traceDir: null, traceS3: null });
      const named = { ...run, destinations: { local: traceFilePath(odd, run.root) } };
      expect(await reader.read(named, noRemote, never)).toEqual({
        failures: [`local ${named.destinations.local}: no trace file of this run in a trace folder of catalog "main" (none advertised)`],
      });
    }
  });

  it("reads the root's own file in any folder it may read when the memo names another folder (a later build closed the run)", async () => {
    const { dir, run } = tracedRun('main');
    const started = mkdtempSync(path.join(tmpdir(), 'skein-trace-reader-v1-'));
    const moved = { ...run, destinations: { local: traceFilePath(started, run.root) } };
    const reader = new TraceReader(async () => [dir], { traceDir: null, traceS3: null });
    expect(await reader.read(moved, noRemote, never)).toEqual({ source: 'local', location: run.destinations.local, data: { version: 1, root: run.root } });
    // Another run's file named by the memo changes nothing: the file read is always the root's own.
    const forged = { ...run, destinations: { local: traceFilePath(dir, { workflowId: 'wf', runId: 'r0' }) } };
    expect(await reader.read(forged, noRemote, never)).toMatchObject({ location: run.destinations.local });
    expect(await reader.read({ ...run, root: { workflowId: 'wf', runId: 'r9' } }, noRemote, never)).toHaveProperty('failures');
  });

  it('asks again for a catalog that advertised nothing, and keeps an answer that named a folder for a few seconds', async () => {
    const { dir, run } = tracedRun('main');
    let asked = 0;
    let answer: string[] = [];
    const reader = new TraceReader(
      async () => {
        asked += 1;
        return answer;
      },
      { traceDir: null, traceS3: null },
    );
    expect(await reader.read(run, noRemote, never)).toHaveProperty('failures');
    answer = [dir];
    expect(await reader.read(run, noRemote, never)).toHaveProperty('source', 'local');
    expect(asked).toBe(2);
    answer = [];
    expect(await reader.read(run, noRemote, never)).toHaveProperty('source', 'local');
    expect(asked).toBe(2);
  });

  it('an engine failure names no folder; SKEIN_TRACE_DIR is still read', async () => {
    const { dir, run } = tracedRun('main');
    const failing = new TraceReader(() => Promise.reject(new Error('engine down')), { traceDir: null, traceS3: null });
    expect(await failing.read(run, noRemote, never)).toHaveProperty('failures');
    const configured = new TraceReader(() => Promise.reject(new Error('engine down')), { traceDir: dir, traceS3: null });
    expect(await configured.read(run, noRemote, never)).toHaveProperty('source', 'local');
  });

  it('a FIFO at the trace path is a failure at once, naming why', async () => {
    const { dir, run } = tracedRun('main');
    rmSync(run.destinations.local!);
    execFileSync('mkfifo', [run.destinations.local!]);
    const reader = new TraceReader(async () => [dir], { traceDir: null, traceS3: null });
    const read = await reader.read(run, noRemote, never);
    expect(read).toEqual({ failures: [`local ${run.destinations.local}: the trace path is not a regular file`] });
  });

  it('a remote destination without a configured bucket fails without asking for the root', async () => {
    const { run } = tracedRun('main');
    const reader = new TraceReader(async () => [], { traceDir: null, traceS3: null });
    const read = await reader.read({ ...run, destinations: { remote: 'http://127.0.0.1:9/b/k_wf.json' } }, noRemote, never);
    expect(read).toEqual({ failures: ['remote http://127.0.0.1:9/b/k_wf.json: no S3 destination is configured (SKEIN_TRACE_S3_BUCKET)'] });
  });
});
