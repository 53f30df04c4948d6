/**
 * The validation cache (`validateWithCache`, `validate-workflow-package --cache`) gives the report a validation
 * without it gives: every fixture under `fixtures/` (a copy of the tree, so edits and cache files never touch the
 * repository) is validated without the cache, then with a cold cache, a warm one, after an edit that leaves the
 * file's facts alone (a comment) and after one that changes them (a new export); each report, and its stylish and
 * JSON renderings, must equal a fresh validation without the cache of the same tree. The cache's own contract
 * (invalidation, a corrupted or foreign file, atomic writes, where the file goes) has tests of its own below.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MAX_FILE_BYTES as CORE_MAX_FILE_BYTES, docsPath } from '@skein/discovery';
import {
  allRuleMetas,
  cacheFileFor,
  defaultCacheFile,
  formatJson,
  formatStylish,
  loadBaseline,
  runCli,
  validate,
  validateWithCache,
  type CachePath,
  type ValidateOptions,
  type ValidationReport,
} from '@skein/validator';
import { checkObservations, type Observation } from '@skein/discovery/observations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELTA_LIMIT_BYTES, parseSnapshot, readCacheFile, recordDigest, ValidationFileCache } from '../src/cache/file-cache.js';
import { DEFAULT_MAX_FILE_BYTES } from '../src/defaults.js';
import { ruleHelpUri } from '../src/formatters/help-uri.js';
import { ruleDocsUrl } from '../src/package-info.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = path.resolve(HERE, '../../../fixtures');

/** Options some fixtures need to show their findings (as in golden.test.ts). */
const OPTIONS: Record<string, ValidateOptions> = {
  'discovery/robustness': { maxFileBytes: 3000 },
  'validator/fs/file-too-large/invalid': { maxFileBytes: 4096 },
  'validator/fs/file-too-large/valid': { maxFileBytes: 4096 },
};

const SOURCE = /\.(?:[mc]?[jt]s|[jt]sx)$/;

/** Every directory under `dir` holding a package.json, outside `node_modules`, relative to `dir`. */
function fixtureRoots(dir: string, base = dir): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  if (dir !== base && entries.some((e) => e.isFile() && e.name === 'package.json')) out.push(path.relative(base, dir));
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...fixtureRoots(path.join(dir, e.name), base));
  }
  return out;
}

/** The first source file of a fixture (sorted walk, outside node_modules and dot folders), else its package.json. */
function fileToEdit(root: string): string {
  const walk = (dir: string): string | undefined => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) if (e.isFile() && SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) return path.join(dir, e.name);
    for (const e of entries) {
      if (!e.isDirectory() || e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const found = walk(path.join(dir, e.name));
      if (found) return found;
    }
    return undefined;
  };
  return walk(root) ?? path.join(root, 'package.json');
}

/** Everything a user sees of a report: the data, and the stylish and JSON renderings. */
function outputs(report: ValidationReport) {
  return { json: formatJson(report), stylish: formatStylish(report, { color: false }), data: JSON.parse(JSON.stringify(report)) as unknown };
}

let tmp: string;
let tree: string;
const paths: CachePath[] = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validate-cache-'));
  tree = path.join(tmp, 'fixtures');
  fs.cpSync(FIXTURES, tree, { recursive: true, verbatimSymlinks: true });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('every fixture: the same report without the cache, with a cold one, a warm one and after edits', () => {
  for (const fixture of fixtureRoots(FIXTURES)) {
    it(fixture, async () => {
      const root = path.join(tree, fixture);
      const cacheFile = path.join(tmp, 'caches', `${fixture.replaceAll('/', '_')}.json`);
      const options = OPTIONS[fixture] ?? {};
      const warnings: string[] = [];
      const cached = async (expected: CachePath | undefined) => {
        let taken: CachePath | undefined;
        const report = await validateWithCache(root, { ...options, cache: { file: cacheFile, onWarning: (m) => warnings.push(m) } }, (p) => (taken = p));
        paths.push(taken as CachePath);
        if (expected) expect(taken).toBe(expected);
        return outputs(report);
      };
      const fresh = async () => outputs(await validate(root, options));

      const before = await fresh();
      expect(await cached('validated')).toEqual(before);
      expect(await cached('stored')).toEqual(before);

      const file = fileToEdit(root);
      const original = fs.readFileSync(file, 'utf8');
      // An edit that changes no fact (a trailing comment; package.json: a trailing newline).
      fs.writeFileSync(file, file.endsWith('.json') ? `${original}\n` : `${original}\n// edited\n`);
      expect(await cached(undefined)).toEqual(await fresh());
      expect(await cached('stored')).toEqual(await fresh());
      // An edit that changes the file's facts (a new export; package.json: a new field).
      fs.writeFileSync(file, file.endsWith('.json') ? original.replace(/^\{/, '{ "description": "edited",') : `${original}\nexport const cacheTestEdit = 1;\n`);
      expect(await cached(undefined)).toEqual(await fresh());
      expect(await cached('stored')).toEqual(await fresh());
      // Back to the original: the report is the first one again.
      fs.writeFileSync(file, original);
      expect(await cached(undefined)).toEqual(before);
      expect(warnings).toEqual([]);
    });
  }

  it('took each path of the cache across the fixtures', () => {
    expect(paths.filter((p) => p === 'stored').length).toBeGreaterThan(100);
    expect(paths.filter((p) => p === 'rederived').length).toBeGreaterThan(20);
    expect(paths.filter((p) => p === 'validated').length).toBeGreaterThan(100);
  });
});

/** A small project in a temporary folder: a workflow, its steps and a helper. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'project-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('package.json', JSON.stringify({ name: 'cache-project', version: '1.0.0', type: 'module', dependencies: { '@skein/core': '0.1.0' } }));
  write(
    'src/flows/greet/workflow.js',
    `import { workflow, z } from '@skein/core';\nimport { hello } from './steps.js';\nimport { shout } from '../../lib/shout.js';\n\nexport default workflow({\n  name: 'greet',\n  inputSchema: z.object({ who: z.string() }),\n  fn: async ({ who }) => shout(await hello({ who })),\n});\n`,
  );
  write(
    'src/flows/greet/steps.js',
    `import { step } from '@skein/core';\n\nexport const hello = step({ name: 'hello', fn: async ({ who }) => 'hi ' + who });\n`,
  );
  write('src/lib/shout.js', `export function shout(text) {\n  return String(text).toUpperCase();\n}\n`);
  return dir;
}

describe('the cache file', () => {
  it('parses and walks only the files that changed, and is valid again after any edit', async () => {
    const dir = project();
    const file = path.join(tmp, `stats-${path.basename(dir)}.json`);
    const stats: { loaded: boolean; files: number; parsed: number }[] = [];
    const run = () => validateWithCache(dir, { cache: { file, onStats: (s) => stats.push(s) } });
    await run();
    expect(stats.at(-1)).toMatchObject({ loaded: false });
    expect(stats.at(-1)?.parsed).toBe(stats.at(-1)?.files);
    // A change to what a file exports: the full analysis runs, with every other file's record.
    fs.appendFileSync(path.join(dir, 'src/lib/shout.js'), 'export const other = 2;\n');
    const report = await run();
    expect(stats.at(-1)).toMatchObject({ loaded: true, parsed: 1 });
    expect(stats.at(-1)?.files).toBeGreaterThan(2);
    expect(JSON.stringify(report)).toBe(JSON.stringify(await validate(dir)));
  });

  it("stores each workflow's activity types once per distinct list, and gives them back as a validation without the cache has them", async () => {
    const dir = project();
    fs.mkdirSync(path.join(dir, 'src/flows/wave'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'src/flows/wave/workflow.js'),
      `import { workflow } from '@skein/core';\nimport { hello } from './steps.js';\n\nexport default workflow({ name: 'wave', fn: async (input) => hello(input) });\n`,
    );
    fs.writeFileSync(
      path.join(dir, 'src/flows/wave/steps.js'),
      `import { step } from '@skein/core';\n\nexport const hello = step({ name: 'hello', fn: async ({ who }) => 'hey ' + who });\n`,
    );
    const file = path.join(tmp, `activity-types-${path.basename(dir)}.json`);
    await validateWithCache(dir, { cache: { file } });
    const read = readCacheFile(file);
    if (!('header' in read)) throw new Error('no cache file');
    const stored = JSON.parse(read.snapshot.toString('utf8')) as {
      activityTypeLists: string[][];
      report: { manifest: { workflows: Array<{ activityTypes: unknown }> } };
    };
    expect(stored.activityTypeLists).toEqual([['hello']]);
    expect(stored.report.manifest.workflows.map((w) => w.activityTypes)).toEqual([0, 0]);
    const via: CachePath[] = [];
    const report = await validateWithCache(dir, { cache: { file } }, (p) => via.push(p));
    expect(via).toEqual(['stored']);
    expect(report.manifest.workflows.map((w) => w.activityTypes).sort()).toEqual([['greet#hello'], ['wave#hello']]);
    expect(JSON.stringify(report)).toBe(JSON.stringify(await validate(dir)));
  });

  it('hands back the answers the report stands on, on every path: they hold right after, and an edit breaks them', async () => {
    const dir = project();
    const file = path.join(tmp, `answers-${path.basename(dir)}.json`);
    const steps = path.join(dir, 'src/flows/greet/steps.js');
    let answers: Observation[] | undefined;
    const via: CachePath[] = [];
    const run = async () => {
      answers = undefined;
      await validateWithCache(dir, { cache: { file, onAnswers: (o) => (answers = o) } }, (p) => via.push(p));
      return answers!;
    };
    for (const edit of [
      () => {},
      () => {},
      // Inside a function body: only the edited file is checked again.
      () => fs.writeFileSync(steps, fs.readFileSync(steps, 'utf8').replace("'hi '", "'hello '")),
      // A new export: a full analysis.
      () => fs.appendFileSync(steps, 'export const other = 1;\n'),
    ]) {
      edit();
      const got = await run();
      expect(got.some((o) => o[0] === 'r' && o[1] === fs.realpathSync(steps))).toBe(true);
      expect(checkObservations(got, () => false)).toEqual({ same: true, changed: [] });
    }
    expect(via).toEqual(['validated', 'stored', 'rederived', 'validated']);
    fs.appendFileSync(steps, '// edited\n');
    expect(checkObservations(answers!, () => true)).toMatchObject({ same: true, changed: [expect.arrayContaining(['r', fs.realpathSync(steps)])] });
  });

  it('is dropped as a whole when the options, or a package.json or tsconfig the analysis read, change', async () => {
    const dir = project();
    const file = path.join(tmp, `key-${path.basename(dir)}.json`);
    let taken: CachePath | undefined;
    const stats: { loaded: boolean }[] = [];
    const run = (options: ValidateOptions = {}) => validateWithCache(dir, { ...options, cache: { file, onStats: (s) => stats.push(s) } }, (p) => (taken = p));
    await run();
    await run();
    expect(taken).toBe('stored');
    await run({ maxFileBytes: 100_000 });
    expect([taken, stats.at(-1)?.loaded]).toEqual(['validated', false]);
    await run({ maxFileBytes: 100_000, mode: 'project' });
    expect([taken, stats.at(-1)?.loaded]).toEqual(['validated', false]);
    await run({ maxFileBytes: 100_000, mode: 'project' });
    expect(taken).toBe('stored');

    const pkg = path.join(dir, 'package.json');
    fs.writeFileSync(pkg, fs.readFileSync(pkg, 'utf8').replace('"version"', '"description":"x","version"'));
    const afterPackageJson = await run({ maxFileBytes: 100_000, mode: 'project' });
    expect([taken, stats.at(-1)?.loaded]).toEqual(['validated', false]);
    expect(JSON.stringify(afterPackageJson)).toBe(JSON.stringify(await validate(dir, { maxFileBytes: 100_000, mode: 'project' })));

    // A tsconfig the analysis reads (its compiler folders shape the layout).
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'dist' } }));
    await run({ maxFileBytes: 100_000, mode: 'project' });
    await run({ maxFileBytes: 100_000, mode: 'project' });
    expect(taken).toBe('stored');
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'build' } }));
    const afterTsconfig = await run({ maxFileBytes: 100_000, mode: 'project' });
    expect(taken).toBe('validated');
    expect(JSON.stringify(afterTsconfig)).toBe(JSON.stringify(await validate(dir, { maxFileBytes: 100_000, mode: 'project' })));
  });

  it('a new file where an import looked, or a removed one, is seen', async () => {
    const dir = project();
    const file = path.join(tmp, `new-${path.basename(dir)}.json`);
    const run = () => validateWithCache(dir, { cache: { file } });
    const unresolved = (report: ValidationReport) =>
      report.diagnostics.filter((d) => d.ruleId === 'fs/unresolved-import').map((d) => `${path.relative(dir, d.file)}:${d.line}:${d.column}`);
    expect(unresolved(await run())).toEqual([]);
    fs.rmSync(path.join(dir, 'src/lib/shout.js'));
    const removed = await run();
    expect(unresolved(removed)).toEqual(['src/flows/greet/workflow.js:3:23']);
    expect(JSON.stringify(removed)).toBe(JSON.stringify(await validate(dir)));
    fs.writeFileSync(path.join(dir, 'src/lib/shout.ts'), 'export function shout(text: string) {\n  return text;\n}\n');
    expect(JSON.stringify(await run())).toBe(JSON.stringify(await validate(dir)));
    fs.rmSync(path.join(dir, 'src/lib/shout.ts'));
    fs.writeFileSync(path.join(dir, 'src/lib/shout.js'), 'export const shout = (text) => text;\n');
    const added = await run();
    expect(unresolved(added)).toEqual([]);
    expect(JSON.stringify(added)).toBe(JSON.stringify(await validate(dir)));
  });

  it('a corrupted or foreign cache file: one warning, ignored, rewritten', async () => {
    const dir = project();
    const expected = JSON.stringify(await validate(dir));
    for (const content of ['{"format": "skein-validate-cache", "version": 1, "key": "x", "configs": [', '{"eslint": true}\n{}\n{}\n', '\u0000\u0001binary']) {
      const file = path.join(tmp, `corrupt-${path.basename(dir)}-${content.length}.json`);
      fs.writeFileSync(file, content);
      const warnings: string[] = [];
      let taken: CachePath | undefined;
      const report = await validateWithCache(dir, { cache: { file, onWarning: (m) => warnings.push(m) } }, (p) => (taken = p));
      expect(JSON.stringify(report)).toBe(expected);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('is not a Skein validation cache');
      expect(taken).toBe('validated');
      // Rewritten: the next run is answered from it, without a warning.
      await validateWithCache(dir, { cache: { file, onWarning: (m) => warnings.push(m) } }, (p) => (taken = p));
      expect(taken).toBe('stored');
      expect(warnings).toHaveLength(1);
    }
  });

  it('a cache file that is valid JSON but not what its writer wrote (a line edited, a header of the wrong shape): one warning, the same report, rewritten', async () => {
    const dir = project();
    const source = path.join(tmp, `edited-source-${path.basename(dir)}.json`);
    await validateWithCache(dir, { cache: { file: source } });
    const [header, snapshot, records] = fs.readFileSync(source, 'utf8').split('\n');
    const edits: Record<string, () => string[]> = {
      'the report emptied': () => [header!, JSON.stringify({ ...JSON.parse(snapshot!), report: {} }), records!],
      'an answer replaced by null': () => [header!, JSON.stringify({ ...JSON.parse(snapshot!), observations: [null] }), records!],
      'the records line replaced': () => [header!, snapshot!, JSON.stringify({ '/x': null })],
      'a configuration entry of null': () => [JSON.stringify({ ...JSON.parse(header!), configs: [null] }), snapshot!, records!],
    };
    for (const [what, edit] of Object.entries(edits)) {
      const file = path.join(tmp, `edited-${what.replaceAll(' ', '-')}-${path.basename(dir)}.json`);
      fs.writeFileSync(file, `${edit().join('\n')}\n`);
      const warnings: string[] = [];
      const via: CachePath[] = [];
      // The records line is read by a full analysis only: an edit of the project's file makes the run need them.
      if (what === 'the records line replaced') fs.appendFileSync(path.join(dir, 'src/lib/shout.js'), 'export const edited = 1;\n');
      const report = await validateWithCache(dir, { cache: { file, onWarning: (m) => warnings.push(m) } }, (p) => via.push(p));
      expect(JSON.stringify(report), what).toBe(JSON.stringify(await validate(dir)));
      expect(warnings, what).toEqual([expect.stringContaining('is not a Skein validation cache of this version (or is corrupted')]);
      await validateWithCache(dir, { cache: { file, onWarning: (m) => warnings.push(m) } }, (p) => via.push(p));
      expect([via, warnings.length], what).toEqual([['validated', 'stored'], 1]);
    }
  });

  it('is written through a temporary file and a rename (no temporary file is left; a cache that cannot be written is a warning)', async () => {
    const dir = project();
    const folder = fs.mkdtempSync(path.join(tmp, 'atomic-'));
    const file = path.join(folder, 'validate.json');
    await validateWithCache(dir, { cache: { file } });
    expect(fs.readdirSync(folder)).toEqual(['validate.json']);
    const renamed: string[] = [];
    const watcher = fs.watch(folder, (_event, name) => name && renamed.push(name));
    fs.appendFileSync(path.join(dir, 'src/lib/shout.js'), 'export const x = 1;\n');
    await validateWithCache(dir, { cache: { file } });
    await expect.poll(() => renamed.some((n) => n.endsWith('.tmp'))).toBe(true);
    watcher.close();
    expect(fs.readdirSync(folder)).toEqual(['validate.json']);

    // A location that cannot be written (a file where a folder should be): one warning, the same report.
    const blocked = path.join(folder, 'validate.json', 'cache.json');
    const warnings: string[] = [];
    const report = await validateWithCache(dir, { cache: { file: blocked, onWarning: (m) => warnings.push(m) } });
    expect(JSON.stringify(report)).toBe(JSON.stringify(await validate(dir)));
    expect(warnings).toEqual([expect.stringContaining('cannot write the cache file')]);
  });
});

describe('the fast path’s deltas', () => {
  it('an edit the stored report stands on is appended as one delta line (the file is not rewritten); a delta of another base, or cut short, is skipped', async () => {
    const dir = project();
    const file = path.join(tmp, `delta-${path.basename(dir)}.json`);
    const steps = path.join(dir, 'src/flows/greet/steps.js');
    const via: CachePath[] = [];
    const warnings: string[] = [];
    const run = () => validateWithCache(dir, { cache: { file, onWarning: (m) => warnings.push(m) } }, (p) => via.push(p));
    const expected = JSON.stringify(await validate(dir));
    await run();
    const written = fs.readFileSync(file);
    const { ino } = fs.statSync(file);
    fs.writeFileSync(steps, fs.readFileSync(steps, 'utf8').replace("'hi '", "'hello '"));
    expect(JSON.stringify(await run())).toBe(expected);
    const after = fs.readFileSync(file);
    expect(fs.statSync(file).ino).toBe(ino);
    expect(after.subarray(0, written.length).equals(written)).toBe(true);
    const read = readCacheFile(file);
    if (!('header' in read)) throw new Error('no cache file');
    expect(read.overrides).toEqual([expect.arrayContaining(['r', fs.realpathSync(steps)])]);
    expect(Object.keys(read.extra)).toEqual([fs.realpathSync(steps)]);
    expect(JSON.stringify(await run())).toBe(expected);
    expect(via).toEqual(['validated', 'rederived', 'stored']);

    // The same delta under another base, the delta edited into other valid JSON (its digest no longer holds), one
    // of this base whose answers are not answers, then half of the delta (a process killed while appending): all
    // skipped, so the edited file is derived again, and the delta that run appends after the cut line is read.
    const line = after.subarray(written.length).toString('utf8');
    const json = line.trim().slice(41);
    const signed = (text: string) => `\n${createHash('sha1').update(text).digest('hex')} ${text}\n`;
    expect(line).toBe(signed(json));
    const foreign = signed(json.replace(/"base":"[0-9a-f]+"/, '"base":"000000000000"'));
    const edited = line.replace(/"E:[A-Z]+"|"[0-9a-f]{40}"(?=,\d)/, '"0000000000000000000000000000000000000000"');
    expect(edited).not.toBe(line);
    const malformed = signed(JSON.stringify({ base: read.header.base, overrides: [null, 7], extra: {} }));
    fs.writeFileSync(
      file,
      Buffer.concat([written, ...[foreign, edited, malformed, line.slice(0, Math.floor(line.length / 2))].map((part) => Buffer.from(part))]),
    );
    expect(JSON.stringify(await run())).toBe(expected);
    expect(JSON.stringify(await run())).toBe(expected);
    expect(via.slice(3)).toEqual(['rederived', 'stored']);
    expect(warnings).toEqual([]);
  });

  it('past DELTA_LIMIT_BYTES of deltas, the fast path writes the file whole again with its deltas merged into one', async () => {
    const dir = project();
    const file = path.join(tmp, `delta-limit-${path.basename(dir)}.json`);
    const steps = path.join(dir, 'src/flows/greet/steps.js');
    const via: CachePath[] = [];
    const run = () => validateWithCache(dir, { cache: { file } }, (p) => via.push(p));
    await run();
    const first = readCacheFile(file);
    if (!('header' in first)) throw new Error('no cache file');
    // A delta of this base holding a record of the steps file larger than the limit.
    const big = { base: first.header.base, overrides: [], extra: { [fs.realpathSync(steps)]: { hash: 'x'.repeat(DELTA_LIMIT_BYTES) } } };
    const bigJson = JSON.stringify(big);
    fs.appendFileSync(file, `\n${createHash('sha1').update(bigJson).digest('hex')} ${bigJson}\n`);
    fs.writeFileSync(steps, fs.readFileSync(steps, 'utf8').replace("'hi '", "'hello '"));
    const { ino } = fs.statSync(file);
    expect(JSON.stringify(await run())).toBe(JSON.stringify(await validate(dir)));
    expect(fs.statSync(file).ino).not.toBe(ino);
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(4);
    const read = readCacheFile(file);
    if (!('header' in read)) throw new Error('no cache file');
    expect(read.header.base).toBe(first.header.base);
    expect(read.deltaBytes).toBeLessThan(DELTA_LIMIT_BYTES);
    expect(read.overrides).toEqual([expect.arrayContaining(['r', fs.realpathSync(steps)])]);
    await run();
    expect(via).toEqual(['validated', 'rederived', 'stored']);
  });
});

describe('the cache against a baseline', () => {
  it('finds a step inserted before a wait, although the edit keeps the file’s facts and findings', async () => {
    const fixture = path.join(FIXTURES, 'validator/versioning/incompatible-change/baseline');
    const dir = fs.mkdtempSync(path.join(tmp, 'baseline-'));
    fs.cpSync(fixture, dir, { recursive: true });
    const { shapes } = await loadBaseline(fixture, 'fx-versioning-incompatible-change');
    expect(shapes).toBeDefined();
    const file = path.join(tmp, `baseline-${path.basename(dir)}.json`);
    const run = () => validateWithCache(dir, { baseline: shapes!, cache: { file } });
    const ids = (report: ValidationReport) => report.diagnostics.map((d) => d.ruleId);
    expect(ids(await run())).not.toContain('versioning/incompatible-change');
    expect(ids(await run())).not.toContain('versioning/incompatible-change');
    // `charge` is imported already: calling it once more before the wait changes no import, export or definition.
    const workflow = path.join(dir, 'order/workflow.js');
    const text = fs.readFileSync(workflow, 'utf8');
    fs.writeFileSync(workflow, text.replace('await reserve({ id });', 'await reserve({ id });\n    await charge({ id });'));
    const report = await run();
    expect(ids(report)).toContain('versioning/incompatible-change');
    expect(JSON.stringify(report.diagnostics)).toBe(JSON.stringify((await validate(dir, { baseline: shapes! })).diagnostics));
  });
});

describe('validate-workflow-package --cache', () => {
  const io = (cwd: string) => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { cwd, stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t) } };
  };

  it('writes <dir>/.skein/cache/validate.json by default, and prints what a run without it prints', async () => {
    const dir = project();
    const plain = io(dir);
    const plainCode = await runCli(['--format', 'json'], plain.io);
    const first = io(dir);
    expect(await runCli(['--cache', '--format', 'json'], first.io)).toBe(plainCode);
    expect(fs.existsSync(path.join(dir, '.skein', 'cache', 'validate.json'))).toBe(true);
    const second = io(dir);
    expect(await runCli(['--cache', '--format', 'json'], second.io)).toBe(plainCode);
    expect(second.out).toEqual(plain.out);
    expect(first.out).toEqual(plain.out);
  });

  it('--cache-location: a file, or a folder that holds one cache per validated directory', async () => {
    const dir = project();
    const folder = fs.mkdtempSync(path.join(tmp, 'location-'));
    const a = io(dir);
    await runCli(['--cache-location', `${folder}/`, '--format', 'json'], a.io);
    expect(fs.readdirSync(folder)).toEqual([path.basename(cacheFileFor(dir, `${folder}/`, dir))]);
    expect(fs.readdirSync(folder)[0]).toMatch(/^validate-[0-9a-f]{12}\.json$/);
    expect(fs.existsSync(path.join(dir, '.skein'))).toBe(false);
    const file = path.join(folder, 'mine.json');
    await runCli(['--cache', '--cache-location', file, '--format', 'json'], io(dir).io);
    expect(fs.existsSync(file)).toBe(true);
    expect(defaultCacheFile(dir)).toBe(path.join(dir, '.skein', 'cache', 'validate.json'));
  });

  it('a corrupted cache file: one warning line on stderr, the same output', async () => {
    const dir = project();
    const file = path.join(tmp, `cli-corrupt-${path.basename(dir)}.json`);
    fs.writeFileSync(file, 'not json at all\n');
    const plain = io(dir);
    await runCli(['--format', 'json'], plain.io);
    const run = io(dir);
    await runCli(['--cache-location', file, '--format', 'json'], run.io);
    expect(run.out.stdout).toBe(plain.out.stdout);
    expect(run.out.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^validate-workflow-package: warning: .* is not a Skein validation cache/)]);
  });
});

describe('a per-file record', () => {
  it('takes part in the snapshot digest with every field a layer adds (one more fact is one more field)', () => {
    const record = { hash: 'h', facts: { info: undefined, problems: [] }, lint: { workflow: { findings: [], resolved: [] } } };
    const plain = recordDigest(record, ['workflow']);
    expect(recordDigest({ ...record, hash: 'other' }, ['workflow'])).toBe(plain);
    expect(recordDigest({ ...record, shape: { commands: ['timer'] } }, ['workflow'])).not.toBe(plain);
    expect(recordDigest({ ...record, shape: { commands: ['timer'] } }, ['workflow'])).not.toBe(
      recordDigest({ ...record, shape: { commands: ['activity'] } }, ['workflow']),
    );
    expect(recordDigest(record, [])).not.toBe(plain);
  });

  it('is stored with the digest recordDigest gives, extra fields included', () => {
    const file = path.join(tmp, 'digest.json');
    const cache = new ValidationFileCache(file, { version: '0', options: {}, root: tmp }, () => {});
    const record = cache.recordFor('/x/a.js', 'text');
    Object.assign(record, { facts: { info: undefined, problems: [] }, lint: { steps: { findings: [], resolved: [['./b.js', '{}']] } }, shape: { n: 1 } });
    expect(cache.save({ report: {} as ValidationReport, observations: [], files: new Map([['/x/a.js', ['steps']]]), ownRoots: [] })).toBeUndefined();
    const read = readCacheFile(file);
    if (!('header' in read)) throw new Error('no cache file');
    expect(parseSnapshot(read)?.files['/x/a.js']).toEqual([recordDigest(record, ['steps']), ['steps']]);
    expect(JSON.parse(read.records.toString('utf8'))).toEqual({ '/x/a.js': record });
  });
});

describe("what the command's light entry assumes", () => {
  it('the default size cap is the analysis core’s', () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(CORE_MAX_FILE_BYTES);
  });

  it('every rule’s help URI follows from its id (no rule sets its own docs URL)', () => {
    for (const meta of allRuleMetas) expect(ruleHelpUri(meta.id)).toBe(meta.docs.url ?? ruleDocsUrl(docsPath(meta.id)));
  });
});
