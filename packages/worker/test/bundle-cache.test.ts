import { mkdir, mkdtemp, readdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { discover } from '@skein/discovery';
import { beginBundle, bundleWorkflows, type BundleSettings } from '../src/bundle/bundle.js';
import { startWebpackProcess, type WebpackProcess } from '../src/bundle/webpack-process.js';
import { BundleCache } from '../src/bundle/cache.js';
import { holdBundling } from '../src/bundle/bundling-lock.js';
import { loadProject } from '../src/host/load.js';

const repoModules = path.resolve(import.meta.dirname, '../../../node_modules');
let dir: string;

async function write(rel: string, text: string) {
  await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await writeFile(path.join(dir, rel), text);
}

async function bundle() {
  const manifest = await discover(dir, { ceiling: dir });
  return bundleWorkflows(await loadProject(manifest), { cacheDir: path.join(dir, '.skein', 'bundles') });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-bundle-cache-'));
  await symlink(repoModules, path.join(dir, 'node_modules'));
  await write('package.json', JSON.stringify({ name: 'cache-probe', version: '1.0.0', type: 'module', private: true }));
  await write('greet/format.js', `export const greeting = (name) => 'Hello ' + name + ' (v1)';\n`);
  await write(
    'greet/workflow.js',
    `import { workflow } from '@skein/core';\nimport { greeting } from './format.js';\nimport { shout } from './steps.js';\nexport default workflow({ name: 'greet', fn: async (input) => shout(greeting(input.name)) });\n`,
  );
  await write('greet/steps.js', `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => text.toUpperCase() });\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

describe('workflow bundle cache', () => {
  it('builds on a miss, serves the same bundle on a hit without webpack, and rebuilds when an imported file changes', async () => {
    const first = await bundle();
    expect(first.cache).toBe('miss');
    expect(first.code).toContain('(v1)');
    // webpack's persistent cache is written when asked (the worker asks once it is up), after the bundle is returned.
    await first.persist?.();
    expect(await readdir(path.join(dir, '.skein', 'bundles', 'webpack'))).not.toHaveLength(0);

    const second = await bundle();
    expect(second.cache).toBe('hit');
    expect(second.code).toBe(first.code);

    // A step's body is not part of the bundle (its stub is): editing it reuses the bundle.
    await write(
      'greet/steps.js',
      `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => text.toUpperCase() + '!' });\n`,
    );
    expect((await bundle()).cache).toBe('hit');

    // One imported (workflow-side) file changes: never the stale bundle.
    await write('greet/format.js', `export const greeting = (name) => 'Hello ' + name + ' (v2)';\n`);
    const third = await bundle();
    expect(third.cache).toBe('miss');
    expect(third.code).toContain('(v2)');
    expect(third.code).not.toContain('(v1)');
    // Every miss leaves webpack's compiler open with its cache write pending: close it, as the worker does, so
    // nothing writes into the project after the test (a late write raced the clean-up: ENOTEMPTY under load).
    await third.persist?.();

    // Undoing the edit finds the bundle from before it.
    await write('greet/format.js', `export const greeting = (name) => 'Hello ' + name + ' (v1)';\n`);
    const undone = await bundle();
    expect(undone.cache).toBe('hit');
    expect(undone.code).toBe(first.code);
    await write('greet/format.js', `export const greeting = (name) => 'Hello ' + name + ' (v2)';\n`);

    // A file whose absence decided a resolution appears (format.ts next to format.js): rebuilt too.
    const fourth = await bundle();
    expect(fourth.cache).toBe('hit');
    await write('greet/format.ts', `export const greeting = (name: string) => 'Hello ' + name + ' (ts)';\n`);
    const fifth = await bundle();
    expect(fifth.cache).toBe('miss');
    expect(fifth.code).toContain('(ts)');
    await fifth.persist?.();
  }, 180_000);

  it('gives workers of one project with different trace folders one bundle, each with its own folder written in', async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const project = await loadProject(manifest);
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'skein-bundle-shared-'));
    const withoutMap = (code: string) => code.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
    try {
      const [a, b] = [path.join(dir, 'traces-a'), path.join(dir, 'traces-b')];
      // Side by side, as two workers starting at once: one bundles while the other waits for it and takes its bundle
      // from the cache, each with its own folder written in.
      const [first, second] = await Promise.all([bundleWorkflows(project, { cacheDir, traceDir: a }), bundleWorkflows(project, { cacheDir, traceDir: b })]);
      await Promise.all([first.persist?.(), second.persist?.()]);
      expect([first.cache, second.cache].sort()).toEqual(['hit', 'miss']);
      expect(first.code).toContain(`core.configureBundle(${JSON.stringify({ traceDir: a })});`);
      expect(first.code).not.toContain(JSON.stringify(b));
      expect(second.code).toContain(`core.configureBundle(${JSON.stringify({ traceDir: b })});`);
      expect(second.code).not.toContain(JSON.stringify(a));
      expect(withoutMap(second.code).replaceAll(JSON.stringify(b), JSON.stringify(a))).toBe(withoutMap(first.code));
      // One entry file for both: the trace folder is not part of what webpack builds.
      const entries = (await readdir(path.join(cacheDir, 'work'))).filter((f) => f.startsWith('workflows-'));
      expect(entries).toHaveLength(1);
      // A third folder, an S3 destination, and none at all: each a hit on the one bundle, with its own settings.
      const c = path.join(dir, 'traces-$&-"c"');
      const third = await bundleWorkflows(project, { cacheDir, traceDir: c });
      expect(third.cache).toBe('hit');
      expect(withoutMap(third.code).replace(JSON.stringify({ traceDir: c }), JSON.stringify({ traceDir: a }))).toBe(withoutMap(first.code));
      const traceRemote = { bucket: 'traces', prefix: 'runs/', region: 'us-east-1', endpoint: 'http://127.0.0.1:8333' };
      const remote = await bundleWorkflows(project, { cacheDir, traceDir: a, traceRemote });
      expect(remote.cache).toBe('hit');
      expect(remote.code).toContain(`core.configureBundle(${JSON.stringify({ traceDir: a, traceRemote })});`);
      const none = await bundleWorkflows(project, { cacheDir });
      expect(none.cache).toBe('hit');
      expect(none.code).toContain('core.configureBundle({});');
    } finally {
      await rm(cacheDir, { recursive: true, force: true, maxRetries: 5 });
    }
  }, 180_000);

  it("with webpack's cache off, stores the bundle but neither reads nor writes webpack's cache", async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'skein-bundle-no-webpack-'));
    try {
      const warm = await bundleWorkflows(await loadProject(manifest), { cacheDir });
      await warm.persist?.();
      expect(await readdir(path.join(cacheDir, 'webpack'))).not.toHaveLength(0);
      // The bundle cache's records gone, webpack's cache kept: with webpack's cache on, a miss would restore from it.
      for (const f of await readdir(cacheDir)) if (/\.(js|json)$/.test(f)) await rm(path.join(cacheDir, f));
      const settings: BundleSettings = { cacheDir, webpackCache: false };
      const miss = await bundleWorkflows(await loadProject(manifest), settings);
      expect(miss.cache).toBe('miss');
      expect(miss.persist).toBeUndefined();
      // Built from scratch, as the first (cold) run was: not 2 modules from webpack's cache.
      expect(miss.modules).toEqual(warm.modules);
      const hit = await bundleWorkflows(await loadProject(manifest), settings);
      expect(hit.cache).toBe('hit');
      expect(hit.code).toBe(miss.code);
    } finally {
      await rm(cacheDir, { recursive: true, force: true, maxRetries: 5 });
    }
  }, 180_000);

  it('bundles without writing anything when the cache is off', async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const result = await bundleWorkflows(await loadProject(manifest), { cacheDir: false });
    expect(result.cache).toBe('off');
    expect(result.code).toContain('catalogWorkflow');
  }, 120_000);
});

describe('a bundle begun before the import (beginBundle)', () => {
  /** The bundling process with its calls watched. */
  function watched(): WebpackProcess & { provideStubs: ReturnType<typeof vi.fn>; cancel: ReturnType<typeof vi.fn> } {
    const proc = startWebpackProcess();
    return { run: (run) => proc.run(run), provideStubs: vi.fn((file: string) => proc.provideStubs(file)), cancel: vi.fn(() => proc.cancel()) };
  }
  const withoutMap = (code: string) => code.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');

  it('compiles from the discovered entry while the steps are imported, and makes the bundle a plain run makes', async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const plain = await bundleWorkflows(await loadProject(manifest), { cacheDir: path.join(dir, '.skein', 'plain-bundles') });
    const settings: BundleSettings = { cacheDir: path.join(dir, '.skein', 'early-bundles') };
    const proc = watched();
    const early = await beginBundle(manifest, settings, proc);
    expect(early).not.toBeNull();
    expect(early!.run.loaderOptions.stubsFile).toBe('');
    const built = await bundleWorkflows(await loadProject(manifest), { ...settings, early });
    expect(proc.provideStubs).toHaveBeenCalledTimes(1);
    expect(proc.cancel).not.toHaveBeenCalled();
    expect(built.cache).toBe('miss');
    expect(withoutMap(built.code)).toBe(withoutMap(plain.code));
    expect(built.code).toMatch(/activityStub\)?\(\{"name":"shout","kind":"step"\}\)/);
    // Stored under the same key a plain run computes: the next start is a hit.
    expect((await bundleWorkflows(await loadProject(manifest), settings)).cache).toBe('hit');
  }, 120_000);

  it('is ended where another start of the project is bundling the same key, whose bundle this start then serves', async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const cacheDir = path.join(dir, '.skein', 'two-starts-bundles');
    const settings: BundleSettings = { cacheDir };
    // The other start's bundle, built first and kept aside until that start "stores" it; its records name the key.
    const other = await bundleWorkflows(await loadProject(manifest), settings);
    const records = (await readdir(cacheDir)).filter((f) => /\.(js|json)$/.test(f));
    const configKey = records[0]!.split('-')[0]!;
    const aside = await mkdtemp(path.join(tmpdir(), 'skein-bundle-aside-'));
    for (const f of records) await rename(path.join(cacheDir, f), path.join(aside, f));
    const otherStart = await holdBundling(cacheDir, configKey);
    const proc = watched();
    const early = await beginBundle(manifest, settings, proc);
    expect(early).not.toBeNull();
    const served = bundleWorkflows(await loadProject(manifest), { ...settings, early });
    // Waiting, it ends its early run at once rather than compete with the other start for the CPU.
    await vi.waitFor(() => expect(proc.cancel).toHaveBeenCalled());
    for (const f of records) await rename(path.join(aside, f), path.join(cacheDir, f));
    await otherStart.release();
    const result = await served;
    expect(result.cache).toBe('hit');
    expect(result.code).toBe(other.code);
    expect(proc.provideStubs).not.toHaveBeenCalled();
    await rm(aside, { recursive: true, force: true });
  }, 120_000);

  it('is ended, and the bundle made by a plain run, when the import finds another entry than discovery read', async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const settings: BundleSettings = { cacheDir: path.join(dir, '.skein', 'other-entry-bundles') };
    const proc = watched();
    // As if static reading had named another binding than the one the import finds holding the workflow.
    const misread = { ...manifest, workflows: manifest.workflows.map((w) => ({ ...w, localExport: 'misreadBinding' })) };
    const early = await beginBundle(misread, settings, proc);
    const built = await bundleWorkflows(await loadProject(manifest), { ...settings, early });
    expect(proc.cancel).toHaveBeenCalled();
    expect(proc.provideStubs).not.toHaveBeenCalled();
    expect(built.cache).toBe('miss');
    expect(withoutMap(built.code)).not.toContain('misreadBinding');
  }, 120_000);

  it("is not begun where webpack's persistent cache can rebuild from a previous run, nor with the cache off", async () => {
    const manifest = await discover(dir, { ceiling: dir });
    const cacheDir = path.join(dir, '.skein', 'warm-bundles');
    await mkdir(path.join(cacheDir, 'webpack'), { recursive: true });
    await writeFile(path.join(cacheDir, 'webpack', 'index.pack'), '');
    for (const settings of [{ cacheDir }, { cacheDir: false as const }]) {
      const proc = watched();
      expect(await beginBundle(manifest, settings, proc)).toBeNull();
      expect(proc.cancel).toHaveBeenCalledTimes(1);
    }
    // With webpack's cache off that cache is never read: begun as in a fresh container.
    const proc = watched();
    const early = await beginBundle(manifest, { cacheDir, webpackCache: false }, proc);
    expect(early).not.toBeNull();
    await early!.cancel();
  });
});

describe('BundleCache records', () => {
  const store = (cache: BundleCache, configKey: string, code: string) => cache.store(configKey, code, { files: [], missing: [] });

  it('keeps the four newest records with their bundles, and a young bundle that no record names yet (another process storing it); drops a bundling lock owner file a signal left behind', async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'skein-bundle-records-'));
    try {
      const cache = new BundleCache(cacheDir);
      const bundles = async () => (await readdir(cacheDir)).filter((f) => f.endsWith('.js')).sort();
      for (const n of [1, 2, 3, 4]) {
        expect(await store(cache, `key${n}`, `code ${n}`)).toBeUndefined();
        // Records are ordered by modification time: keep them apart on coarse clocks.
        await utimes(
          path.join(
            cacheDir,
            (await readdir(cacheDir)).find((f) => f.startsWith(`key${n}-`) && f.endsWith('.json'))!,
          ),
          n,
          n,
        );
      }
      // A second worker has written its bundle and not yet its record; an orphan from long ago has no record either.
      await writeFile(path.join(cacheDir, 'other-inflight.js'), 'code of the other worker');
      await writeFile(path.join(cacheDir, 'other-orphan.js'), 'left behind');
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(path.join(cacheDir, 'other-orphan.js'), hourAgo, hourAgo);
      // Bundling locks' owner files: one a signal left behind an hour ago (no lock folder beside it), one of a holder
      // (its lock folder stands beside it), one just written (its lock folder not made yet, or just removed).
      const owner = (key: string) => path.join(cacheDir, `${key}.bundling.owner`);
      for (const key of ['left', 'held', 'young']) await writeFile(owner(key), '{"pid":1,"host":"h"}');
      await mkdir(path.join(cacheDir, 'held.bundling'));
      for (const key of ['left', 'held']) await utimes(owner(key), hourAgo, hourAgo);

      expect(await store(cache, 'key5', 'code 5')).toBeUndefined();
      const left = await bundles();
      // The oldest record (key1) and its bundle are dropped, the old orphan is deleted, the young bundle is kept.
      expect(left.filter((f) => f.startsWith('key')).map((f) => f.split('-')[0])).toEqual(['key2', 'key3', 'key4', 'key5']);
      expect(left).toContain('other-inflight.js');
      expect(left).not.toContain('other-orphan.js');
      const owners = (await readdir(cacheDir)).filter((f) => f.endsWith('.owner')).sort();
      expect(owners).toEqual(['held.bundling.owner', 'young.bundling.owner']);
      expect(await cache.lookup('key5')).toBe('code 5');
      expect(await cache.lookup('key1')).toBeNull();
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
