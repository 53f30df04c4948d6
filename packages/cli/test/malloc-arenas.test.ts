import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { withWorkerMallocArenas } from '../src/malloc-arenas.js';

const source = fileURLToPath(new URL('../src/malloc-arenas.ts', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'skein-malloc-arenas-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A script that prints its process id and `MALLOC_ARENA_MAX` (one JSON line), then asks to be started again. */
const script = path.join(scratch, 'command.mjs');
writeFileSync(
  script,
  `import { reexecWorkerWithMallocArenas } from ${JSON.stringify(source)};
const line = JSON.stringify({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null });
if (process.send) process.send(line); else console.log(line);
reexecWorkerWithMallocArenas();
if (process.send) process.disconnect();
`,
);

/** Runs the script as `<script> <command>` with `env` added: the lines it printed, parsed. */
function run(command: string, env: Record<string, string> = {}): Array<{ pid: number; arenas: string | null }> {
  const { MALLOC_ARENA_MAX: _, GLIBC_TUNABLES: __, ...rest } = process.env;
  const r = spawnSync(process.execPath, [script, command], { env: { ...rest, ...env }, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { pid: number; arenas: string | null });
}

describe.runIf(process.platform === 'linux')('skein worker starts itself again with two malloc arenas', () => {
  it('as the same process, with MALLOC_ARENA_MAX=2, once', () => {
    const [first, second, ...more] = run('worker');
    expect(first).toEqual({ pid: expect.any(Number) as number, arenas: null });
    expect(second).toEqual({ pid: first!.pid, arenas: '2' });
    expect(more).toEqual([]);
  });

  it("not for another command, nor over the operator's own setting", () => {
    expect(run('api')).toEqual([{ pid: expect.any(Number) as number, arenas: null }]);
    expect(run('worker', { MALLOC_ARENA_MAX: '8' })).toEqual([{ pid: expect.any(Number) as number, arenas: '8' }]);
    expect(run('worker', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=4' })).toEqual([{ pid: expect.any(Number) as number, arenas: null }]);
  });

  it('not when forked with an IPC channel, which a new start would close', async () => {
    const { MALLOC_ARENA_MAX: _, ...env } = process.env;
    const child = fork(script, ['worker'], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const lines: string[] = [];
    child.on('message', (m) => lines.push(m as string));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ pid: child.pid, arenas: null }]);
  });
});

describe('withWorkerMallocArenas', () => {
  it('sets two arenas on Linux unless the environment sets them; elsewhere leaves the environment as it is', () => {
    expect(withWorkerMallocArenas({ PATH: '/bin' }, 'linux')).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
    const own = { MALLOC_ARENA_MAX: '1' };
    expect(withWorkerMallocArenas(own, 'linux')).toBe(own);
    const tunables = { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=3' };
    expect(withWorkerMallocArenas(tunables, 'linux')).toBe(tunables);
    const mac = { PATH: '/bin' };
    expect(withWorkerMallocArenas(mac, 'darwin')).toBe(mac);
  });
});
