/**
 * webpack runs out of the serving process: the compiled worker bundles a project in a child process that has
 * exited by the time the bundle is handed back, and webpack's heap never grows the caller's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { prepareProject } from '@skein/worker';
import { repoRoot } from '../support/stack.js';

/** The text of a `/proc` file, or '' when its thread or process has exited since it was listed. */
function procText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Command lines of this process's live child processes (Linux `/proc`), each prefixed by its pid. */
function children(): string[] {
  // A thread listed by readdir may exit before its `children` file is read (the SDK's and webpack's threads come and go).
  const pids = readdirSync('/proc/self/task').flatMap((tid) => procText(`/proc/self/task/${tid}/children`).split(' ').filter(Boolean));
  return pids.map((pid) => {
    const cmdline = procText(`/proc/${pid}/cmdline`);
    return cmdline ? `${pid} ${cmdline.split('\0').join(' ')}` : ''; // '' once it exited meanwhile
  });
}

/** The bundling processes among `commands` (see `children`). */
const bundlers = (commands: Iterable<string>) => [...commands].filter((c) => c.includes('webpack-process-main.js'));

/** A bundle without its inline source map (which names the folder the generated entry was written to). */
const withoutMap = (code: string) => code.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');

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
    expect(bundlers(children()), 'and that process has exited').toEqual([]);
    // In this process, webpack's compilation adds about 150 MB to the heap of even this small project.
    expect(heapPeak).toBeLessThan(60 * 1024 * 1024);
  }, 180_000);

  it('with a cold bundle cache, bundles in one process begun with the validation, fed the discovered entry early: the same bundle', async () => {
    // A TypeScript project, its bundle cache inside it: there the generated entry's path sorts among the paths of the
    // bundle's modules, where a temporary folder (the cache off) sorts before them all. The bundle must not follow it.
    const logger = pino({ level: 'silent' });
    const project = path.join(repoRoot, 'fixtures/projects/smoke-ts');
    const plain = await prepareProject(project, { logger, bundleCache: false, startupCache: false });
    const cacheDir = path.join(project, '.skein', `bundles-process-test-${process.pid}`);
    const seen = new Set<string>();
    const sampler = setInterval(() => bundlers(children()).forEach((c) => seen.add(c)), 15);
    try {
      const early = await prepareProject(project, { logger, bundleCache: cacheDir, startupCache: false });
      expect(early.bundleCache).toBe('miss');
      expect(withoutMap(early.workflowCode)).toBe(withoutMap(plain.workflowCode));
    } finally {
      clearInterval(sampler);
      await rm(cacheDir, { recursive: true, force: true });
    }
    expect(seen.size, 'one bundling process: the early run was taken').toBe(1);
    expect(bundlers(children())).toEqual([]);
  }, 180_000);

  it('ends the bundling process begun with the validation when the project is refused', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'skein-early-bundle-'));
    try {
      await expect(
        prepareProject(path.join(repoRoot, 'fixtures/projects/invalid'), { logger: pino({ level: 'silent' }), bundleCache: cacheDir, startupCache: false }),
      ).rejects.toThrow(/error\(s\) in workflow packages/);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
    expect(bundlers(children())).toEqual([]);
  }, 180_000);

  it('reports webpack’s own error from a bundling begun early, and leaves no process behind', async () => {
    // Node imports the dependency (its `node` export condition); webpack, resolving with the bundle's conditions, cannot.
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-early-bundle-error-'));
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), text);
    };
    try {
      await write(
        'package.json',
        JSON.stringify({ name: 'node-only-probe', version: '1.0.0', type: 'module', private: true, dependencies: { 'node-only': '1.0.0' } }),
      );
      await write(
        'node_modules/node-only/package.json',
        JSON.stringify({ name: 'node-only', version: '1.0.0', type: 'module', exports: { node: './index.js' } }),
      );
      await write('node_modules/node-only/index.js', `export const hello = (n) => 'hello ' + n;\n`);
      for (const dep of ['@skein', 'zod']) await symlink(path.join(repoRoot, 'node_modules', dep), path.join(dir, 'node_modules', dep));
      await write(
        'greet/workflow.js',
        `import { workflow } from '@skein/core';\nimport { hello } from 'node-only';\nimport { shout } from './steps.js';\nexport default workflow({ name: 'greet', fn: async (input) => shout(hello(input.name)) });\n`,
      );
      await write(
        'greet/steps.js',
        `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => text.toUpperCase() });\n`,
      );
      await expect(prepareProject(dir, { logger: pino({ level: 'silent' }), startupCache: false })).rejects.toThrow(
        /^Bundling workflow code failed:[\s\S]*"\." is not exported under the conditions/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(bundlers(children())).toEqual([]);
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
        loaderOptions: { stubsFile: path.join(root, 'package.json'), stubSpecModule: 'x', coreWorkflowRequest: 'x' },
        coreWorkflowEntry: 'x',
        roots: [root],
        activityFiles: [],
      }),
    ).rejects.toThrow(/no-such-entry\.cjs/);
    expect(bundlers(children())).toEqual([]);
  }, 180_000);
});
