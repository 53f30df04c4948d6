import { mkdir, mkdtemp, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActivityResolver, buildActivities } from '../src/host/activities.js';
import { FileDigests } from '../src/cache/file-digests.js';
import { openStartupCaches } from '../src/cache/startup-caches.js';
import { ActivityDefinitions, loadProject, type LoadedProject } from '../src/host/load.js';
import { beginStartupCheck } from '../src/check/check.js';
import { beginProjectCheck, checkProject, finishProjectCheck } from '../src/check/validate.js';
import type { Manifest } from '@skein/discovery';

const repoModules = path.resolve(import.meta.dirname, '../../../node_modules');
const logger = pino({ level: 'silent' });
let dir: string;

async function write(rel: string, text: string) {
  await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await writeFile(path.join(dir, rel), text);
}

const stepSource = (body: string) => `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => ${body} });\n`;

/** A fresh view of the caches, as a new worker process would open them. */
const caches = () => openStartupCaches(path.join(dir, '.skein', 'startup'));

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-startup-cache-'));
  // Only what the project imports (the repository's node_modules also holds exposed fixture packages).
  await mkdir(path.join(dir, 'node_modules', '@skein'), { recursive: true });
  await symlink(path.join(repoModules, '@skein', 'core'), path.join(dir, 'node_modules', '@skein', 'core'));
  await write('package.json', JSON.stringify({ name: 'startup-cache-probe', version: '1.0.0', type: 'module', private: true }));
  await write(
    'greet/workflow.js',
    `import { workflow } from '@skein/core';\nimport { shout } from './steps.js';\nexport default workflow({ name: 'greet', fn: async (input) => shout(input.name) });\n`,
  );
  await write('greet/steps.js', stepSource('text.toUpperCase()'));
  await write(
    'other/workflow.js',
    `import { workflow } from '@skein/core';\nimport { label } from './label.js';\nimport { tag } from './steps.js';\nexport default workflow({ name: 'other', description: label, fn: async (input) => tag(input) });\n`,
  );
  await write('other/label.js', `export const label = 'first label';\n`);
  await write('other/steps.js', `import { step } from '@skein/core';\nexport const tag = step({ name: 'tag', fn: async (x) => ({ tagged: x }) });\n`);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the startup validation through the validator's cache", () => {
  it('skips validation of an unchanged project, and catches an error an edit introduces on the next start', async () => {
    const first = await checkProject(dir, logger, caches());
    expect(first.cache).toBe('miss');
    const second = await checkProject(dir, logger, caches());
    expect(second.cache).toBe('hit');
    expect(second.manifest.workflows.map((w) => w.name).sort()).toEqual(['greet', 'other']);

    // The edit makes the step's name collide with nothing discovery accepts: a non-literal name is an error.
    await write(
      'greet/steps.js',
      `import { step } from '@skein/core';\nconst n = () => 'shout';\nexport const shout = step({ name: n(), fn: async (text) => text });\n`,
    );
    await expect(checkProject(dir, logger, caches())).rejects.toThrow(/greet\/steps\.js/);
    // Still refused on the start after (the cached outcome of an invalid project is the refusal).
    await expect(checkProject(dir, logger, caches())).rejects.toThrow(/greet\/steps\.js/);

    await write('greet/steps.js', stepSource('text.toUpperCase()'));
    expect((await checkProject(dir, logger, caches())).cache).toBe('miss');
    expect((await checkProject(dir, logger, caches())).cache).toBe('hit');
  }, 60_000);

  it('tells the discovered manifest before the check ends when it analyses the project, as a worker serves it; not on a stored report', async () => {
    const told: Manifest[] = [];
    const first = await finishProjectCheck(beginProjectCheck(dir, caches(), { onManifest: (m) => told.push(m) }), logger);
    expect(first.cache).toBe('miss');
    expect(told).toHaveLength(1);
    expect(told[0]!.workflows.map((w) => w.name)).toEqual(first.manifest.workflows.map((w) => w.name));
    expect(told[0]!.workflows.every((w) => w.activityTypes.length === 0)).toBe(true);
    const again: Manifest[] = [];
    expect((await finishProjectCheck(beginProjectCheck(dir, caches(), { onManifest: (m) => again.push(m) }), logger)).cache).toBe('hit');
    expect(again).toEqual([]);
  }, 60_000);

  it('a check begun ahead of the worker answers from the stored report after a validation, and still refuses an edit that adds an error', async () => {
    const startupCache = path.join(dir, '.skein', 'startup');
    const first = await finishProjectCheck(beginStartupCheck(dir, { startupCache }), logger);
    expect(first.cache).toBe('miss');
    expect(first.manifest.workflows.map((w) => w.name).sort()).toEqual(['greet', 'other']);
    const second = await finishProjectCheck(beginStartupCheck(dir, { startupCache }), logger);
    expect(second.cache).toBe('hit');
    expect(second.manifest).toEqual(first.manifest);

    await write(
      'greet/steps.js',
      `import { step } from '@skein/core';\nconst n = () => 'shout';\nexport const shout = step({ name: n(), fn: async (text) => text });\n`,
    );
    await expect(finishProjectCheck(beginStartupCheck(dir, { startupCache }), logger)).rejects.toThrow(/greet\/steps\.js/);
    // The refusal is stored: the start after refuses from the cache.
    const again = beginStartupCheck(dir, { startupCache });
    expect((await again.outcome).path).toBe('stored');
    await expect(finishProjectCheck(again, logger)).rejects.toThrow(/greet\/steps\.js/);
  }, 60_000);

  it('validates again when a file appears where discovery looked (a new workflow folder)', async () => {
    await checkProject(dir, logger, caches());
    await write('third/workflow.js', `import { workflow } from '@skein/core';\nexport default workflow({ name: 'third', fn: async () => 3 });\n`);
    const after = await checkProject(dir, logger, caches());
    expect(after.cache).toBe('miss');
    expect(after.manifest.workflows.map((w) => w.name).sort()).toEqual(['greet', 'other', 'third']);
  }, 60_000);

  it('sees an entry added to a folder whose listing it trusted by its stat', async () => {
    // Folders written more than 2 s before they are listed are trusted by their stat from then on.
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await checkProject(dir, logger, caches())).cache).toBe('miss');
    expect((await checkProject(dir, logger, caches())).cache).toBe('hit');
    // Only the root's listing shows the new folder (nothing looked for it by name).
    await write('fourth/workflow.js', `import { workflow } from '@skein/core';\nexport default workflow({ name: 'fourth', fn: async () => 4 });\n`);
    const after = await checkProject(dir, logger, caches());
    expect(after.cache).toBe('miss');
    expect(after.manifest.workflows.map((w) => w.name).sort()).toEqual(['fourth', 'greet', 'other']);
  }, 60_000);
});

describe("the validator's per-file cache at startup", () => {
  it('is the file validate-workflow-package --cache uses: filled by a start and brought up to date by the next one after an edit', async () => {
    const { validate } = await import('@skein/validator');
    const file = path.join(dir, '.skein', 'cache', 'validate.json');
    await checkProject(dir, logger, caches());
    const stats: { loaded: boolean; files: number; parsed: number }[] = [];
    await validate(dir, { cache: { file, onStats: (s) => stats.push(s) } });
    expect(stats[0]).toMatchObject({ loaded: true, parsed: 0 });

    // The next start after an edit misses the whole-project outcome; its validation records the edited file anew.
    await write('other/label.js', `export const label = 'second label';\n`);
    const next = await checkProject(dir, logger, caches());
    expect(next.cache).toBe('miss');
    expect(next.manifest.workflows.find((w) => w.name === 'other')).toBeDefined();
    await validate(dir, { cache: { file, onStats: (s) => stats.push(s) } });
    expect(stats[1]).toMatchObject({ loaded: true, parsed: 0 });
    expect(stats[1]!.files).toBe(stats[0]!.files);
  }, 60_000);

  it('a corrupted cache file is one warning in the log, and the start goes on', async () => {
    await mkdir(path.join(dir, '.skein', 'cache'), { recursive: true });
    writeFileSync(path.join(dir, '.skein', 'cache', 'validate.json'), '{ not json');
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const checked = await checkProject(dir, log, caches());
    expect(checked.manifest.workflows.map((w) => w.name).sort()).toEqual(['greet', 'other']);
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([expect.stringMatching(/^validation cache: .* is not a Skein validation cache/)]);
  }, 60_000);

  it('none when the startup caches are off', async () => {
    await checkProject(dir, logger, undefined);
    await expect(stat(path.join(dir, '.skein'))).rejects.toThrow();
  }, 60_000);
});

describe('file digests', () => {
  it('never trusts a stat that a same-size rewrite with a restored mtime left behind', async () => {
    const file = path.join(dir, 'greet', 'steps.js');
    const old = await stat(file);
    // Old enough to be trusted by stat alone.
    await utimes(file, old.atime, new Date(Date.now() - 60_000));
    const store = path.join(dir, 'digests.json');
    const d1 = new FileDigests(store);
    const before = d1.digest(file);
    await d1.save();
    const s = await stat(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('toUpperCase', 'toLowerCase'));
    await utimes(file, s.atime, s.mtime);
    expect((await stat(file)).size).toBe(s.size);
    expect((await stat(file)).mtimeMs).toBe(s.mtimeMs);
    const after = new FileDigests(store).digest(file);
    expect(after).not.toBe(before);
    expect(after).toBe(new FileDigests(null).digest(file));
  });
});

describe('project facts cache', () => {
  it('imports nothing for an unchanged project and runs activities from their modules on first call', async () => {
    const manifest = (await checkProject(dir, logger, caches())).manifest;
    const first = await loadProject(manifest, caches());
    expect(first.counts).toEqual({ imported: 2, cached: 0 });

    const second = await loadProject(manifest, caches());
    expect(second.counts).toEqual({ imported: 0, cached: 2 });
    expect(second.workflows.find((w) => w.entry.name === 'other')?.facts.description).toBe('first label');
    const acts = buildActivities(new ActivityResolver(second));
    await expect(acts['greet#shout']!('ada')).resolves.toBe('ADA');

    // An activity file changes: its workflow is imported again (what the edit reached by imports is covered in
    // test/worker/startup-cache.test.ts, in fresh Node processes).
    await write('greet/steps.js', stepSource('text.toUpperCase() + "!"'));
    expect((await loadProject(manifest, caches())).counts).toEqual({ imported: 1, cached: 1 });
  }, 60_000);

  it('fails an activity whose module does not load on first call with a clear, non-retryable error', async () => {
    // As a start that trusted the cache sees it: the facts are known, the module was never imported here.
    const manifest = (await checkProject(dir, logger, caches())).manifest;
    const greet = manifest.workflows.find((w) => w.name === 'greet')!;
    const missing = { ...greet.activities[0]!, file: path.join(dir, 'greet', 'gone.js') };
    const project: LoadedProject = {
      manifest,
      workflows: [{ entry: greet, binding: 'default', facts: { name: 'greet', aliases: [], description: null, inputSchema: null, outputSchema: null } }],
      scoped: new Map([['greet', [{ entry: missing, facts: { name: 'shout', kind: 'step' } }]]]),
      shared: [],
      activityFiles: new Map(),
      definitions: new ActivityDefinitions(),
      counts: { imported: 0, cached: 1 },
    };
    const acts = buildActivities(new ActivityResolver(project));
    await expect(acts['greet#shout']!('ada')).rejects.toMatchObject({
      type: 'ActivityLoadFailed',
      nonRetryable: true,
      message: expect.stringContaining('greet/gone.js'),
    });
  }, 60_000);
});
