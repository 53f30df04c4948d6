import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discover } from '@skein/discovery';
import { bundleWorkflows, coreWorkflowEntry } from '../../src/bundle/bundle.js';
import { computeBuildId, resolveBuildId } from '../../src/deploy/build-id.js';
import { loadProject } from '../../src/host/load.js';

/** A small TypeScript project shaped like a real one: src/ with `.js`-suffixed imports, a dependency, a hook file. */
function writeProject(root: string): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      { name: 'shop', version: '1.0.0', type: 'module', dependencies: { lefty: '^1.0.0' }, skein: { hookFiles: ['./src/hooks.ts'] } },
      null,
      2,
    ),
    'src/order/workflow.ts':
      "import { workflow } from '@skein/core';\nimport { charge } from './steps.js';\nexport default workflow({ name: 'order', fn: async () => charge() });\n",
    'src/order/steps.ts':
      "import { step } from '@skein/core';\nimport { price } from '../lib/price.js';\nexport const charge = step({ name: 'charge', fn: async () => price(2) });\n",
    'src/lib/price.ts': 'export const price = (n: number) => n * 10;\n',
    'src/hooks.ts': "import { onWorkflowStart } from '@skein/core';\nonWorkflowStart(() => {});\n",
    'src/order/steps.test.ts': "it('prices', () => {});\n",
    'node_modules/lefty/package.json': JSON.stringify({ name: 'lefty', version: '1.0.0', main: 'index.js' }),
    'node_modules/lefty/index.js': 'module.exports = 1;\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
}

describe('computeBuildId', () => {
  let dir: string;
  let root: string;
  const bundleOf = (r: string) => `require(${JSON.stringify(path.join(r, 'src/order/workflow.ts'))});\n// workflow code\n`;
  const idOf = (r = root, code = bundleOf(r)) => computeBuildId({ workflowCode: code, roots: [r] });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'skein-build-id-'));
    root = path.join(dir, 'shop');
    writeProject(root);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is stable for unchanged code, and 24 hex characters', () => {
    const id = idOf();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(idOf()).toBe(id);
  });

  it('changes with a one-character change to a step', () => {
    const before = idOf();
    const file = path.join(root, 'src/order/steps.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('price(2)', 'price(3)'));
    expect(idOf()).not.toBe(before);
  });

  it('changes with a module a step imports, a hook file and the workflow bundle', () => {
    const before = idOf();
    writeFileSync(path.join(root, 'src/lib/price.ts'), 'export const price = (n: number) => n * 11;\n');
    const afterLib = idOf();
    expect(afterLib).not.toBe(before);
    writeFileSync(path.join(root, 'src/hooks.ts'), "import { onWorkflowStart } from '@skein/core';\nonWorkflowStart(() => { });\n");
    const afterHook = idOf();
    expect(afterHook).not.toBe(afterLib);
    expect(idOf(root, bundleOf(root) + ';')).not.toBe(afterHook);
  });

  it('keeps its value when package.json is reformatted, reordered or its description edited', () => {
    const before = idOf();
    const pkgFile = path.join(root, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries({ ...pkg, description: 'the shop', scripts: { test: 'vitest' } }).reverse());
    writeFileSync(pkgFile, JSON.stringify(reordered, null, 4) + '\n\n');
    expect(idOf()).toBe(before);
  });

  it('changes when package.json changes how code loads or a dependency resolves to another version', () => {
    const before = idOf();
    const pkgFile = path.join(root, 'package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(pkgFile, JSON.stringify({ ...pkg, skein: { hookFiles: [] } }));
    const afterHooks = idOf();
    expect(afterHooks).not.toBe(before);
    writeFileSync(path.join(root, 'node_modules/lefty/package.json'), JSON.stringify({ name: 'lefty', version: '1.0.1', main: 'index.js' }));
    expect(idOf()).not.toBe(afterHooks);
  });

  it('ignores test files and what the worker writes under .skein', () => {
    const before = idOf();
    writeFileSync(path.join(root, 'src/order/steps.test.ts'), "it('prices twice', () => {});\n");
    mkdirSync(path.join(root, '.skein/traces'), { recursive: true });
    writeFileSync(path.join(root, '.skein/traces/run.json'), '{}');
    expect(idOf()).toBe(before);
  });

  it('is the same for two copies of one project in different folders, and for another trace directory', () => {
    const copy = path.join(dir, 'elsewhere', 'shop');
    cpSync(root, copy, { recursive: true });
    expect(idOf(copy)).toBe(idOf());
    const withTraces = (r: string, traces: string) =>
      computeBuildId({ workflowCode: `${bundleOf(r)}configureBundle({"traceDir":${JSON.stringify(traces)}});`, roots: [r], locations: [traces] });
    expect(withTraces(root, '/var/traces/a')).toBe(withTraces(root, '/tmp/b'));
  });

  it('covers exposed packages: a change in one gives a new build ID', () => {
    const pkgRoot = path.join(root, 'node_modules/@acme/flows');
    mkdirSync(path.join(pkgRoot, 'dist'), { recursive: true });
    writeFileSync(path.join(pkgRoot, 'package.json'), JSON.stringify({ name: '@acme/flows', version: '1.0.0', type: 'module' }));
    writeFileSync(path.join(pkgRoot, 'dist/steps.js'), 'export const a = 1;\n');
    const ids = () => computeBuildId({ workflowCode: bundleOf(root), roots: [root, pkgRoot] });
    const before = ids();
    writeFileSync(path.join(pkgRoot, 'dist/steps.js'), 'export const a = 2;\n');
    expect(ids()).not.toBe(before);
  });
});

/**
 * These tests compare build IDs of real webpack bundles (about 3 CPU-s each), so the fixture project is written once
 * for the describe and every bundle is made once per distinct input: `bundle()` remembers each result by the project
 * files' content, the root, the settings and the working folder. Only bundles that differ in one of those are built;
 * a test that edits a step restores it before it ends.
 */
describe('computeBuildId of a real workflow bundle', () => {
  const repoModules = path.resolve(import.meta.dirname, '../../../../node_modules');
  const shout = (body: string) => `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => ${body} });\n`;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'skein-build-id-bundle-'));
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'greeter', version: '1.0.0', type: 'module', private: true }),
      'greet/workflow.js':
        "import { workflow } from '@skein/core';\nimport { shout } from './steps.js';\nexport default workflow({ name: 'greet', fn: async (input) => shout(input.name) });\n",
      'greet/steps.js': shout('text.toUpperCase()'),
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    }
    symlinkSync(repoModules, path.join(dir, 'node_modules'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const made = new Map<string, Promise<{ code: string; cache: string }>>();
  /** The bundle of the project at `root` as it is now, built once per distinct input (see the describe's header). */
  const bundle = (root: string, settings: { traceDir?: string; cacheDir: string | false }) => {
    const sources = ['package.json', 'greet/workflow.js', 'greet/steps.js'].map((f) => readFileSync(path.join(root, f), 'utf8'));
    const key = JSON.stringify({ root, settings, cwd: process.cwd(), sources });
    let result = made.get(key);
    if (!result) {
      result = (async () => bundleWorkflows(await loadProject(await discover(root, { ceiling: root })), settings))();
      made.set(key, result);
    }
    return result;
  };

  /** The build ID a worker computes for the project when its bundle records traces in `traceDir`. */
  const buildIdWith = async (traceDir: string, cacheDir: string | false) => {
    const { code } = await bundle(dir, { traceDir, cacheDir });
    expect(code).toContain(traceDir);
    return computeBuildId({ workflowCode: code, roots: [dir], locations: [traceDir] });
  };

  it('is the same for two trace folders, and a changed step still changes it', async () => {
    const cache = path.join(dir, '.skein', 'bundles');
    const a = await buildIdWith('/srv/machine-a/traces', cache);
    expect(await buildIdWith('/var/lib/machine-b/skein-traces', cache)).toBe(a);
    writeFileSync(path.join(dir, 'greet/steps.js'), shout("text + '!'"));
    try {
      expect(await buildIdWith('/srv/machine-a/traces', cache)).not.toBe(a);
    } finally {
      writeFileSync(path.join(dir, 'greet/steps.js'), shout('text.toUpperCase()'));
    }
  }, 120_000);

  it('is the same with the bundle cache off, on, and for a copy of the project elsewhere; a changed step changes it', async () => {
    // With the cache off, the generated entry lives in a new temporary folder at every build: the copy's bundle,
    // made in another one, shows that folder does not reach the ID.
    const idOf = async (root: string, cacheDir: string | false) => {
      const { code, cache } = await bundle(root, { cacheDir });
      expect(cache).toBe(cacheDir === false ? 'off' : 'miss');
      return computeBuildId({ workflowCode: code, roots: [root] });
    };
    const off = await idOf(dir, false);
    expect(await idOf(dir, path.join(dir, '.skein', 'bundles-untraced'))).toBe(off);
    // Another folder, at another depth, with the same node_modules link.
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'skein-build-id-copy-')), 'deeper', 'greeter');
    try {
      cpSync(dir, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
      expect(await idOf(copy, false)).toBe(off);
      writeFileSync(path.join(copy, 'greet/steps.js'), shout('text.toLowerCase()'));
      expect(await idOf(copy, false)).not.toBe(off);
    } finally {
      rmSync(path.dirname(path.dirname(copy)), { recursive: true, force: true });
    }
  }, 180_000);

  it('names no folder of @skein/core in its code: the stubs import it by a fixed name, not by its path', async () => {
    // webpack names an ES import's variable after its request; a path there would move with the project's
    // node_modules (where a project's own `npx skein` finds @skein/core), out of the placeholders' reach.
    const { code } = await bundle(dir, { cacheDir: false });
    const withoutMap = code.slice(0, code.lastIndexOf('//# sourceMappingURL='));
    const core = coreWorkflowEntry();
    expect(withoutMap).toContain('activityStub');
    expect(withoutMap).not.toContain(core);
    expect(withoutMap).not.toContain(path.dirname(core).replace(/[^a-zA-Z0-9]+/g, '_'));
  }, 120_000);

  it('writes the modules of the bundle in the order of their ids, which carry no location', async () => {
    // webpack's own order is by absolute path: the generated entry moved with the folder it was written to.
    const { code } = await bundle(dir, { cacheDir: false });
    const ids = [...code.matchAll(/^\/\*\*\*\/ (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length).toBeGreaterThan(50);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  }, 120_000);

  it('does not depend on the folder the worker was started from', async () => {
    // A bundle cache outside the project keeps the generated entry's path out of the placeholders' reach.
    const cache = path.join(dir, '..', `${path.basename(dir)}-bundles`);
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      const here = await buildIdWith('/srv/traces', cache);
      rmSync(cache, { recursive: true, force: true });
      process.chdir(tmpdir());
      expect(await buildIdWith('/srv/traces', cache)).toBe(here);
    } finally {
      process.chdir(cwd);
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('resolveBuildId', () => {
  it('uses the override when set, else computes', () => {
    expect(resolveBuildId(' v42 ', () => 'computed')).toBe('v42');
    expect(resolveBuildId(undefined, () => 'computed')).toBe('computed');
    expect(resolveBuildId('', () => 'computed')).toBe('computed');
  });

  it('refuses an override Temporal cannot use, naming the setting', () => {
    expect(() => resolveBuildId('1.2.3', () => 'x')).toThrow(/SKEIN_BUILD_ID "1.2.3"/);
    expect(() => resolveBuildId('a b', () => 'x')).toThrow(/SKEIN_BUILD_ID/);
    expect(() => resolveBuildId('x'.repeat(256), () => 'x')).toThrow(/255/);
    expect(() => resolveBuildId('main@v1', () => 'x')).toThrow(/SKEIN_BUILD_ID "main@v1".*"@"/);
  });
});
