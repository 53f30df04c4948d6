import { describe, expect, it } from 'vitest';
import { ActivityResolver, buildActivities } from '../src/host/activities.js';
import { buildCatalogDocument, catalogVersion, fitCatalogDocument } from '../src/deploy/catalog.js';
import { declaredEntryWorkflow, entryWorkflowOf, withBundleSettings, workflowEntrySource } from '../src/bundle/entry.js';
import { WorkerStartupError } from '../src/check/errors.js';
import { loadProject } from '../src/host/load.js';
import { examplesManifest } from './manifest-helpers.js';
import path from 'node:path';
import { discover } from '@skein/discovery';
import { enableTypeScriptSources } from '../src/host/typescript/resolve-hook.js';

describe('loadProject', () => {
  it('pairs every discovered workflow and activity with its runtime definition', async () => {
    const project = await loadProject(examplesManifest());
    expect(project.workflows.map((w) => [w.facts.name, w.binding])).toEqual([
      ['onboard', 'default'],
      ['summarize', 'default'],
      ['welcome', 'default'],
    ]);
    expect(project.scoped.get('summarize')?.map((a) => a.facts.name)).toEqual(['countWords', 'extractKeywords', 'judgeReadability']);
    expect(project.shared.map((a) => a.facts.name)).toEqual(['slugify', 'titleCase']);
    expect([...project.activityFiles.values()].flat()).toHaveLength(8);
  });

  it('refuses a definition whose name disagrees with what discovery read', async () => {
    const manifest = examplesManifest();
    manifest.workflows[1]!.activities[0]!.name = 'wordCount';
    await expect(loadProject(manifest)).rejects.toThrow(WorkerStartupError);
    await expect(loadProject(manifest)).rejects.toThrow(/export "countWords" should be step "wordCount"/);
  });
});

describe('activity registration (SPEC rules 6 and 10)', () => {
  it('registers workflow-scoped activities as <workflow>#<activity>, one dynamic default for shared ones, and the built-in HTTP request', async () => {
    const acts = buildActivities(new ActivityResolver(await loadProject(examplesManifest())));
    expect(Object.keys(acts).sort()).toEqual([
      '__internal#sendHttpRequest',
      'default',
      'onboard#normalizeEmail',
      'onboard#scoreLead',
      'summarize#countWords',
      'summarize#extractKeywords',
      'summarize#judgeReadability',
      'welcome#composeWelcome',
    ]);
    await expect(acts['summarize#countWords']!({ text: 'One two. Three!' })).resolves.toEqual({ words: 3, sentences: 2 });
  });

  it('resolves shared activities for every workflow of the catalog, and nothing else', async () => {
    const resolver = new ActivityResolver(await loadProject(examplesManifest()));
    expect(resolver.resolve('summarize#slugify')?.facts.name).toBe('slugify');
    expect(resolver.resolve('welcome#titleCase')?.facts.name).toBe('titleCase');
    expect(resolver.resolve('onboard#countWords')).toBeUndefined();
    expect(resolver.resolve('stranger#slugify')).toBeUndefined();
    expect(resolver.resolve('slugify')).toBeUndefined();
  });
});

describe('workflow bundle entry', () => {
  /** Evaluates the generated CommonJS entry with stand-in modules; records which modules were evaluated. */
  function evaluateEntry(src: string, modules: Record<string, () => unknown>) {
    const evaluated: string[] = [];
    const configured: unknown[] = [];
    const core = {
      configureBundle: (settings: unknown) => configured.push(settings),
      catalogWorkflow: function catalog() {},
      workflowFunction: (def: unknown) => Object.assign(() => def, { def }),
    };
    const require = (id: string) => {
      if (id === '/core/workflow/index.js') return core;
      evaluated.push(id);
      return modules[id]!();
    };
    const exports: Record<string, unknown> = {};
    new Function('exports', 'require', src)(exports, require);
    return { exports: exports as Record<string, { def: unknown }>, evaluated, configured };
  }

  it('exports one Temporal workflow type per name and alias, plus $catalog, evaluating a workflow module only when its type is read', async () => {
    const project = await loadProject(examplesManifest());
    const file = (name: string) => project.workflows.find((w) => w.facts.name === name)!.entry.file;
    const src = workflowEntrySource(project.workflows.map(entryWorkflowOf), '/core/workflow/index.js');
    const defs = Object.fromEntries(project.workflows.map((w) => [w.facts.name, { name: w.facts.name }]));
    const modules = Object.fromEntries(project.workflows.map((w) => [w.entry.file, () => ({ __esModule: true, default: defs[w.facts.name] })]));
    const { exports, evaluated } = evaluateEntry(src, modules);
    expect(Object.keys(exports).sort()).toEqual(['$catalog', 'greet_customer', 'onboard', 'onboard_customer', 'summarize', 'welcome']);
    expect(evaluated).toEqual([]);
    expect(exports.welcome!.def).toBe(defs.welcome);
    expect(evaluated).toEqual([file('welcome')]);
    // An alias is the same workflow function; a type is built once per evaluation of the entry.
    expect(exports.greet_customer).toBe(exports.welcome);
    expect(exports.onboard_customer!.def).toBe(defs.onboard);
    expect(evaluated).toEqual([file('welcome'), file('onboard')]);
  });

  it('names every workflow from discovery as the import does: the entry a bundle begun before the import compiles', async () => {
    enableTypeScriptSources();
    for (const project of ['examples', 'fixtures/projects/api-suite', 'fixtures/projects/ts-runtime', 'fixtures/projects/smoke-ts']) {
      const manifest = await discover(path.resolve(import.meta.dirname, '../../..', project));
      expect(manifest.workflows.length).toBeGreaterThan(0);
      const loaded = await loadProject(manifest);
      expect(manifest.workflows.map(declaredEntryWorkflow)).toEqual(loaded.workflows.map(entryWorkflowOf));
    }
  });

  it('configures the bundle with the settings written into its slot, whatever characters a trace path holds', async () => {
    const project = await loadProject(examplesManifest());
    const src = workflowEntrySource(project.workflows.map(entryWorkflowOf), '/core/workflow/index.js');
    const settings = { traceDir: '/tmp/traces $& $\' "quoted" \\ ü', traceRemote: { bucket: 'b', prefix: 'runs/' } };
    expect(evaluateEntry(withBundleSettings(src, settings), {}).configured).toEqual([settings]);
    expect(evaluateEntry(withBundleSettings(src, {}), {}).configured).toEqual([{}]);
    // The slot, once: a text without it, or with it twice (a project's module holding its exact text), is refused.
    expect(() => withBundleSettings('module.exports = {};', {})).toThrow(/settings slot nowhere/);
    expect(() => withBundleSettings(src + src, {})).toThrow(/settings slot more than once/);
  });

  it('reads a binding as an ES import does: by name from an ES module, module.exports as the default of CommonJS', async () => {
    const project = await loadProject(examplesManifest());
    const [a, b, c] = project.workflows;
    const named = { ...a!, binding: 'defined' };
    const src = workflowEntrySource([named, b!, c!].map(entryWorkflowOf), '/core/workflow/index.js');
    const cjsDefault = { kind: 'commonjs' };
    const { exports } = evaluateEntry(src, {
      [a!.entry.file]: () => ({ __esModule: true, defined: 'named-def', default: 'wrong' }),
      [b!.entry.file]: () => cjsDefault,
      [c!.entry.file]: () => ({ __esModule: true, default: 'esm-default' }),
    });
    expect(exports[a!.facts.name]!.def).toBe('named-def');
    expect(exports[b!.facts.name]!.def).toBe(cjsDefault);
    expect(exports[c!.facts.name]!.def).toBe('esm-default');
  });
});

describe('catalog document', () => {
  it('lists workflows with aliases, JSON Schemas and activity types', async () => {
    const doc = buildCatalogDocument(await loadProject(examplesManifest()), 'main', 'worker-1', 1000);
    const welcome = doc.workflows.find((w) => w.name === 'welcome')!;
    expect(welcome.aliases).toEqual(['greet_customer']);
    expect(welcome.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' }, locale: { default: 'en' } } });
    // What a caller sends: `locale` has a default, so only `name` is required (a schedule's input is checked against it).
    expect((welcome.inputSchema as { required?: string[] }).required).toEqual(['name']);
    expect(welcome.activities).toContainEqual({ name: 'composeWelcome', kind: 'step', shared: false, type: 'welcome#composeWelcome' });
    expect(welcome.activities).toEqual([{ name: 'composeWelcome', kind: 'step', shared: false, type: 'welcome#composeWelcome' }]);
    expect(doc.sharedActivities).toEqual([
      { name: 'slugify', kind: 'step', package: null },
      { name: 'titleCase', kind: 'step', package: '@skein-fixtures/greetings' },
    ]);
    expect(doc).toMatchObject({ catalog: 'main', publishedAt: 1000, identity: 'worker-1' });
  });

  it('is versioned by a hash of what it serves, not by who published it or when', async () => {
    const project = await loadProject(examplesManifest());
    const a = buildCatalogDocument(project, 'main', 'worker-1', 1000);
    const b = buildCatalogDocument(project, 'main', 'worker-2', 2000);
    expect(a.version).toMatch(/^[0-9a-f]{64}$/);
    expect(b.version).toBe(a.version);
    expect(catalogVersion({ workflows: a.workflows.slice(1), sharedActivities: a.sharedActivities })).not.toBe(a.version);
  });

  it('drops JSON Schemas when the document would not fit the engine memo', async () => {
    const doc = buildCatalogDocument(await loadProject(examplesManifest()), 'main', 'worker-1', 1000);
    const huge = { ...doc, workflows: Array.from({ length: 4000 }, (_, i) => ({ ...doc.workflows[2]!, name: `w${i}` })) };
    const fitted = fitCatalogDocument(huge);
    expect(fitted.schemasDropped).toBe(true);
    expect(fitted.doc.workflows.every((w) => w.inputSchema === null && w.outputSchema === null)).toBe(true);
    expect(fitCatalogDocument(doc)).toEqual({ doc, schemasDropped: false });
  });
});
