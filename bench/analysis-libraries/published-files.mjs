/**
 * Measures `npm-packlist` (the list `npm pack` uses, on an `@npmcli/arborist` tree) against the validator's own
 * published-files list (packages/validator/src/engine/published-files.ts over the core's file walk) for every package
 * folder under fixtures/ and examples/ (each folder with a package.json that Arborist can load). Compared: the
 * JavaScript, TypeScript and declaration files outside dot-folders and node_modules (what the packaging rules ask
 * about; the analysis's walk never lists dot-folders, and npm adds README/LICENSE, which no rule reads). Packages
 * with a nested `.npmignore` (which the validator does not read) are counted apart. Since few fixtures set `"files"`,
 * a set of package shapes is written to a temporary folder too (globs, folders, negations in either order, `main` and
 * `bin` outside `"files"`, an `.npmignore`, a `.gitignore` fallback, dot-files). Also reports the install weight
 * of `npm-packlist` with Arborist and the median time per package of each side.
 *
 *   npm run build && node bench/analysis-libraries/published-files.mjs
 *
 * `npm-packlist` and `@npmcli/arborist` are installed into a scratch folder (scratch-install.mjs), not into the repository.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Diagnostics, isSkippedDirName, nodeFileSystem, walkFiles } from '@skein/discovery';
import { publishedFiles } from '../../packages/validator/dist/engine/published-files.js';
import { fixturePackageJsons, median, scratchInstall } from './scratch-install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { require, weight } = scratchInstall('npm-packlist', ['npm-packlist@11', '@npmcli/arborist@9']);
const packlist = require('npm-packlist');
const Arborist = require('@npmcli/arborist');

const CODE = /\.(?:[mc]?[jt]sx?)$/;
const relevant = (rel) => CODE.test(rel) && !rel.split('/').some((s) => isSkippedDirName(s));

/** The validator's answer, as `loadPackage` makes it. */
function ours(root) {
  const files = walkFiles(nodeFileSystem, root, { skipDir: (name) => isSkippedDirName(name), wantFile: () => true }, new Diagnostics());
  const json = JSON.parse(fs.readFileSync(join(root, 'package.json'), 'utf8'));
  let ignoreFile;
  if (!Array.isArray(json.files)) {
    for (const name of ['.npmignore', '.gitignore']) {
      if (fs.existsSync(join(root, name))) {
        ignoreFile = fs.readFileSync(join(root, name), 'utf8');
        break;
      }
    }
  }
  return publishedFiles(root, files, json, ignoreFile).map((f) => relative(root, f).split('\\').join('/'));
}

/** True when a folder below `root` (not node_modules) holds an `.npmignore`. */
function hasNestedNpmignore(root, dir = root) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (fs.existsSync(join(p, '.npmignore')) || hasNestedNpmignore(root, p)) return true;
  }
  return false;
}

const BASE = {
  'index.js': '',
  'src/a.ts': '',
  'src/a.js': '',
  'src/a.d.ts': '',
  'dist/b.js': '',
  'dist/deep/c.js': '',
  'dist/deep/c.d.ts': '',
  'lib/.hidden.js': '',
};
const SHAPES = [
  { files: ['dist'] },
  { files: ['dist/', '!dist/deep'] },
  { files: ['!dist/deep', 'dist'] },
  { files: ['dist/**/*.js', 'src/*.ts'] },
  { files: ['./dist/*', '!dist/**/*.d.ts'] },
  { files: ['{src,lib}'], main: 'index.js' },
  { files: ['lib'], bin: { tool: './dist/b.js' } },
  { files: ['*.js'] },
  { '.npmignore': 'src/\n*.d.ts\n' },
  { '.gitignore': 'dist\n' },
  { '.npmignore': 'dist/deep\n!dist/deep/c.js\n', '.gitignore': 'src\n' },
];

/** The package folders to compare: fixtures/ and examples/, then the shapes written under a temporary folder. */
function* packageRoots() {
  for (const file of fixturePackageJsons(repo)) yield dirname(file);
  const tmp = fs.realpathSync(fs.mkdtempSync(join(os.tmpdir(), 'skein-packlist-')));
  try {
    for (const [i, shape] of SHAPES.entries()) {
      const root = join(tmp, `shape-${i}`);
      const { '.npmignore': npmignore, '.gitignore': gitignore, ...fields } = shape;
      const files = { ...BASE, 'package.json': JSON.stringify({ name: `shape-${i}`, version: '1.0.0', ...fields }) };
      if (npmignore) files['.npmignore'] = npmignore;
      if (gitignore) files['.gitignore'] = gitignore;
      for (const [rel, text] of Object.entries(files)) {
        fs.mkdirSync(dirname(join(root, rel)), { recursive: true });
        fs.writeFileSync(join(root, rel), text);
      }
      yield root;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const rows = { compared: 0, same: 0, nested: 0, unloadable: 0, withFiles: 0, withIgnoreFile: 0, differ: [] };
const times = { ours: [], packlist: [] };
for (const root of packageRoots()) {
  const file = join(root, 'package.json');
  try {
    JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    rows.unloadable++;
    continue;
  }
  let theirs;
  let start = process.hrtime.bigint();
  try {
    const tree = await new Arborist({ path: root }).loadActual();
    theirs = await packlist(tree);
  } catch {
    rows.unloadable++;
    continue;
  }
  times.packlist.push(Number(process.hrtime.bigint() - start) / 1e6);
  start = process.hrtime.bigint();
  const mine = ours(root);
  times.ours.push(Number(process.hrtime.bigint() - start) / 1e6);
  if (hasNestedNpmignore(root)) {
    rows.nested++;
    continue;
  }
  rows.compared++;
  if (Array.isArray(JSON.parse(fs.readFileSync(file, 'utf8')).files)) rows.withFiles++;
  else if (fs.existsSync(join(root, '.npmignore')) || fs.existsSync(join(root, '.gitignore'))) rows.withIgnoreFile++;
  const a = new Set(mine.filter(relevant));
  const b = new Set(theirs.filter(relevant));
  const onlyOurs = [...a].filter((f) => !b.has(f));
  const onlyTheirs = [...b].filter((f) => !a.has(f));
  if (onlyOurs.length === 0 && onlyTheirs.length === 0) rows.same++;
  else
    rows.differ.push(
      `${root.startsWith(repo) ? relative(repo, root) : root}: only ours [${onlyOurs.join(', ')}], only npm-packlist [${onlyTheirs.join(', ')}]`,
    );
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`npm-packlist + @npmcli/arborist installed: ${weight.packages} packages, ${(weight.bytes / 1024 / 1024).toFixed(1)} MB`);
console.log(
  `packages: ${rows.compared} compared, ${rows.same} with the same published code files; ${rows.nested} with a nested .npmignore; ${rows.unloadable} not loadable`,
);
for (const line of rows.differ) console.log(`  ${line}`);
console.log(`of the compared: ${rows.withFiles} with "files", ${rows.withIgnoreFile} with an .npmignore or .gitignore and no "files"`);
console.log(`median ms per package: ours ${median(times.ours).toFixed(2)}, npm-packlist (Arborist loadActual + packlist) ${median(times.packlist).toFixed(2)}`);
