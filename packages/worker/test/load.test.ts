import { describe, expect, it } from 'vitest';
import { ActivityResolver, buildActivities } from '../src/activities.js';
import { buildCatalogDocument, catalogVersion, fitCatalogDocument } from '../src/catalog.js';
import { workflowEntrySource } from '../src/bundle/entry.js';
import { WorkerStartupError } from '../src/errors.js';
import { loadProject } from '../src/load.js';
import { examplesManifest } from './manifest-helpers.js';

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
  it('registers workflow-scoped activities as <workflow>#<activity> and one dynamic default for shared ones', async () => {
    const acts = buildActivities(new ActivityResolver(await loadProject(examplesManifest())));
    expect(Object.keys(acts).sort()).toEqual([
      'default',
      'onboard#normalizeEmail', 'onboard#scoreLead',
      'summarize#countWords', 'summarize#extractKeywords', 'summarize#judgeReadability',
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
  it('exports one Temporal workflow type per name and alias, plus $catalog', async () => {
    const project = await loadProject(examplesManifest());
    const src = workflowEntrySource(project.workflows, '/core/workflow/index.js');
    expect(src).toContain('export const onboard = workflowFunction(wf0);');
    expect(src).toContain('export const onboard_customer = onboard;');
    expect(src).toContain('export const greet_customer = welcome;');
    expect(src).toContain('export { catalogWorkflow as $catalog };');
  });
});

describe('catalog document', () => {
  it('lists workflows with aliases, JSON Schemas and activity types', async () => {
    const doc = buildCatalogDocument(await loadProject(examplesManifest()), 'main', 'worker-1', 1000);
    const welcome = doc.workflows.find((w) => w.name === 'welcome')!;
    expect(welcome.aliases).toEqual(['greet_customer']);
    expect(welcome.inputSchema).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
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
