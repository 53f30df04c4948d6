/**
 * webpack runs out of the serving process: the compiled worker bundles a project in a child process that has
 * exited by the time the bundle is handed back, and webpack's heap never grows the caller's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { prepareProject } from '@skein/worker';
import { repoRoot } from '../support/stack.js';

/** Command lines of this process's live child processes (Linux `/proc`). */
function children(): string[] {
  const pids = readdirSync('/proc/self/task').flatMap((tid) => readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean));
  return pids.map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      return ''; // exited meanwhile
    }
  });
}

describe('bundling out of the serving process', () => {
  it('bundles in a child process that has exited when the bundle is returned; the caller’s heap stays small', async () => {
    const seen = new Set<string>();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = 0;
    const sampler = setInterval(() => {
      for (const c of children()) seen.add(c);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed - heapBefore);
    }, 15);
    let prepared;
    try {
      prepared = await prepareProject(path.join(repoRoot, 'fixtures/projects/api-suite'), {
        logger: pino({ level: 'silent' }),
        bundleCache: false,
        startupCache: false,
      });
    } finally {
      clearInterval(sampler);
    }
    expect(prepared.workflowCode).toContain('catalogWorkflow');
    expect(
      [...seen].some((c) => c.includes('webpack-process-main.js')),
      'webpack ran in a child process',
    ).toBe(true);
    expect(
      children().filter((c) => c.includes('webpack-process-main.js')),
      'and that process has exited',
    ).toEqual([]);
    // In this process, webpack's compilation adds about 150 MB to the heap of even this small project.
    expect(heapPeak).toBeLessThan(60 * 1024 * 1024);
  }, 180_000);

  it('reports webpack’s own error text when bundling fails in the child process', async () => {
    const { runWebpackIsolated } = (await import(path.join(repoRoot, 'packages/worker/dist/bundle/webpack-process.js'))) as {
      runWebpackIsolated: (run: object) => Promise<unknown>;
    };
    const root = path.join(repoRoot, 'fixtures/projects/api-suite');
    const missing = path.join(root, 'no-such-entry.cjs');
    await expect(
      runWebpackIsolated({
        entryFile: missing,
        loaderOptions: { stubsFile: path.join(root, 'package.json'), stubSpecModule: 'x', coreWorkflowEntry: 'x' },
        roots: [root],
        activityFiles: [],
      }),
    ).rejects.toThrow(/no-such-entry\.cjs/);
    expect(children().filter((c) => c.includes('webpack-process-main.js'))).toEqual([]);
  }, 180_000);
});
