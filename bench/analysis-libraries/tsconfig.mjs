/**
 * Measures `get-tsconfig` against the analysis's own reading of `rootDir` / `outDir` with `extends` followed
 * (`compilerDirs` of @skein/discovery): over every tsconfig.json under fixtures/ and examples/, and over a set of
 * `extends` shapes written to a temporary folder (a relative base without `.json`, an array of bases, a base from a
 * package in node_modules, by its `tsconfig.json` and by a path inside it, a chain of three, options set at several
 * levels, JSONC comments and trailing commas). Compares the absolute `rootDir` and `outDir` each gives, and the time.
 *
 *   npx tsc -b packages/discovery && node bench/analysis-libraries/tsconfig.mjs
 *
 * `get-tsconfig` is installed into a scratch folder (scratch-install.mjs), not into the repository.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compilerDirs, nodeFileSystem } from '@skein/discovery';
import { fixtureFiles, median, scratchInstall } from './scratch-install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { require, weight } = scratchInstall('get-tsconfig', ['get-tsconfig@4']);
const { parseTsconfig } = require('get-tsconfig');

/** Writes `files` (relative path → text) under a new temporary folder and returns it. */
function writeTree(files) {
  const dir = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'skein-tsconfig-')));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(dirname(join(dir, rel)), { recursive: true });
    fs.writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const SHAPES = {
  'relative base without .json': {
    'tsconfig.json': '{ "extends": "./config/base" }',
    'config/base.json': '{ "compilerOptions": { "rootDir": "../src", "outDir": "../dist" } }',
  },
  'array of bases, the later winning': {
    'tsconfig.json': '{ "extends": ["./a.json", "./b.json"] }',
    'a.json': '{ "compilerOptions": { "rootDir": "a-src", "outDir": "a-out" } }',
    'b.json': '{ "compilerOptions": { "outDir": "b-out" } }',
  },
  "a package's tsconfig.json": {
    'tsconfig.json': '{ "extends": "shared-config", "compilerOptions": { "rootDir": "src" } }',
    'node_modules/shared-config/tsconfig.json': '{ "compilerOptions": { "outDir": "./build" } }',
  },
  'a path inside a scoped package': {
    'tsconfig.json': '{ "extends": "@org/tsconfig/node.json" }',
    'node_modules/@org/tsconfig/node.json': '{ "compilerOptions": { "outDir": "lib", "rootDir": "." } }',
  },
  'a chain of three, own options winning': {
    'tsconfig.json': '// the project\n{ "extends": "./one.json", "compilerOptions": { "outDir": "own", }, }',
    'one.json': '{ "extends": "./two.json", "compilerOptions": { "rootDir": "one-src" } }',
    'two.json': '{ "compilerOptions": { "rootDir": "two-src", "outDir": "two-out" } }',
  },
  'no options at all': { 'tsconfig.json': '{}' },
};

const configs = fixtureFiles(repo, 'tsconfig.json', ['.skein', 'node_modules']).map((p) => ({ name: relative(repo, p), root: dirname(p), temporary: false }));
for (const [name, files] of Object.entries(SHAPES)) configs.push({ name, root: writeTree(files), temporary: true });

const times = { ours: [], library: [] };
const differs = [];
for (const c of configs) {
  const file = join(c.root, 'tsconfig.json');
  let ours;
  let theirs;
  for (let i = 0; i < 5; i++) {
    let start = process.hrtime.bigint();
    ours = compilerDirs(nodeFileSystem, c.root);
    times.ours.push(Number(process.hrtime.bigint() - start) / 1e3);
    start = process.hrtime.bigint();
    const options = parseTsconfig(file).compilerOptions ?? {};
    times.library.push(Number(process.hrtime.bigint() - start) / 1e3);
    // get-tsconfig gives path options relative to the project's config folder.
    theirs = { rootDir: options.rootDir && resolve(c.root, options.rootDir), outDir: options.outDir && resolve(c.root, options.outDir) };
  }
  const show = (d) => `rootDir ${d.rootDir ? relative(c.root, d.rootDir) || '.' : '-'}, outDir ${d.outDir ? relative(c.root, d.outDir) || '.' : '-'}`;
  const same = ours.rootDir === theirs.rootDir && ours.outDir === theirs.outDir;
  console.log(`${same ? 'same  ' : 'DIFFER'} ${c.name}: ours ${show(ours)}${same ? '' : `; get-tsconfig ${show(theirs)}`}`);
  if (!same) differs.push(c.name);
  if (c.temporary) fs.rmSync(c.root, { recursive: true, force: true });
}
console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`get-tsconfig installed: ${weight.packages} package(s), ${(weight.bytes / 1024).toFixed(1)} KiB`);
console.log(`configs: ${configs.length}; answers that differ: ${differs.length}`);
console.log(
  `median µs per config (5 reads each, files cached by the OS): ours ${median(times.ours).toFixed(1)}, get-tsconfig ${median(times.library).toFixed(1)}`,
);
