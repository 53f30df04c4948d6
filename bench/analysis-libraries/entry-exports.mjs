/**
 * Measures `resolve.exports` against the analysis's own `exports` resolution (`resolveExportsTarget` of
 * @skein/discovery, conditions in preference order: the workflow-bundle conditions, `import`, `default`) over every
 * package.json with an `exports` field under fixtures/ and examples/, for `.`, each subpath key and a sample path of
 * each pattern key, plus a table of subpath-pattern cases of Node's resolution algorithm. Three answers per query:
 * - ours;
 * - `resolve.exports` as it is (`exports(pkg, subpath, { unsafe: true, conditions })`: conditions in object order);
 * - the hybrid: our condition preference applied first (each conditions object rewritten into an array of its
 *   values in preference order), `resolve.exports` doing the subpath and pattern part, the first `./` target taken.
 *
 *   npx tsc -b packages/discovery && node bench/analysis-libraries/entry-exports.mjs
 *
 * Node itself answers the pattern cases too (a package written to a temporary folder holding every candidate target
 * file, resolved with `import.meta.resolve` in a child process), to tell which answer is right.
 * `resolve.exports` is installed into a scratch folder (scratch-install.mjs), not into the repository.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRY_CONDITIONS, resolveExportsTarget } from '@skein/discovery';
import { WORKFLOW_BUNDLE_CONDITIONS } from '@skein/names';
import { fixturePackageJsons, median, scratchInstall } from './scratch-install.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { require, weight } = scratchInstall('resolve-exports', ['resolve.exports@2']);
const { exports: resolveExports } = require('resolve.exports');

/** `resolve.exports`'s answer (its first target), or null when it finds none. */
function library(exportsField, subpath, conditions) {
  try {
    const found = resolveExports({ name: 'p', exports: exportsField }, subpath, { unsafe: true, conditions });
    return found?.[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * A conditions value with every conditions object replaced by its values in our order (our part): the
 * workflow-bundle conditions first, the others in the object's key order.
 */
function preferred(value) {
  if (Array.isArray(value)) return value.map(preferred);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.some((k) => k.startsWith('.'))) return Object.fromEntries(keys.map((k) => [k, preferred(value[k])]));
    const bundle = WORKFLOW_BUNDLE_CONDITIONS.filter((c) => c in value);
    const rest = keys.filter((k) => ENTRY_CONDITIONS.includes(k) && !bundle.includes(k));
    return [...bundle, ...rest].map((c) => preferred(value[c]));
  }
  return value;
}

/** The hybrid: our condition preference, `resolve.exports` for subpaths and patterns, the first `./` target. */
function hybrid(exportsField, subpath) {
  try {
    const found = resolveExports({ name: 'p', exports: preferred(exportsField) }, subpath, { unsafe: true, conditions: [] });
    return found?.find((t) => typeof t === 'string' && t.startsWith('./')) ?? null;
  } catch {
    return null;
  }
}

const queries = [];
for (const file of fixturePackageJsons(repo)) {
  let json;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  if (json?.exports === undefined || json.exports === null) continue;
  const keys = typeof json.exports === 'object' && !Array.isArray(json.exports) ? Object.keys(json.exports).filter((k) => k.startsWith('.')) : [];
  const subpaths = new Set(['.', ...keys.map((k) => k.replace('*', 'sample/x'))]);
  for (const subpath of subpaths) queries.push({ where: relative(repo, file), exports: json.exports, subpath });
}

// Subpath-pattern cases of Node's algorithm (PATTERN_KEY_COMPARE: the longer prefix before `*` wins, then the longer key).
const PATTERN_CASES = [
  { exports: { './*': './all/*.js', './a/*': './a/*.js' }, subpath: './a/b' },
  { exports: { './a/*.js': './x/*.js', './a/b/*': './y/*' }, subpath: './a/b/c.js' },
  { exports: { './*.js': './star/*.js', './lib/*': './lib/*' }, subpath: './lib/x.js' },
  { exports: { './a.b/*': './dot/*.js' }, subpath: './aXb/c' },
  { exports: { './x/*': './x/*.js' }, subpath: './x/' },
  { exports: { './feature/*': { import: './f/*.mjs', default: './f/*.js' } }, subpath: './feature/one' },
  { exports: { './dir/': './lib/' }, subpath: './dir/file.js' },
];
for (const c of PATTERN_CASES) queries.push({ where: 'pattern case', ...c });

/** Node's own answer for `subpath` of a package whose `exports` is `exportsField`, given the candidate targets. */
function nodeAnswer(exportsField, subpath, candidates) {
  const dir = fs.mkdtempSync(join(os.tmpdir(), 'skein-exports-'));
  try {
    const pkg = join(dir, 'node_modules', 'p');
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'p', type: 'module', exports: exportsField }));
    for (const target of candidates) {
      if (target === null) continue;
      fs.mkdirSync(dirname(join(pkg, target)), { recursive: true });
      fs.writeFileSync(join(pkg, target), '');
    }
    const script = `try { console.log(import.meta.resolve(${JSON.stringify(`p${subpath.slice(1)}`)})) } catch { console.log('null') }`;
    const url = execFileSync(process.execPath, ['--no-deprecation', '--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }).trim();
    return url === 'null' ? null : `./${relative(pkg, fileURLToPath(url)).split('\\').join('/')}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const differs = { library: [], hybrid: [] };
const nodeAgrees = { ours: 0, library: 0, hybrid: 0 };
const times = { ours: [], library: [], hybrid: [] };
const time = (key, fn) => {
  const start = process.hrtime.bigint();
  const value = fn();
  times[key].push(Number(process.hrtime.bigint() - start) / 1e3);
  return value;
};
for (const q of queries) {
  const ours = time('ours', () => resolveExportsTarget(q.exports, q.subpath));
  const lib = time('library', () =>
    library(
      q.exports,
      q.subpath,
      ENTRY_CONDITIONS.filter((c) => c !== 'default'),
    ),
  );
  const hyb = time('hybrid', () => hybrid(q.exports, q.subpath));
  const node = q.where === 'pattern case' ? nodeAnswer(q.exports, q.subpath, [ours, lib, hyb]) : undefined;
  const withNode = node === undefined ? '' : `, Node ${node}`;
  if (node !== undefined) {
    if (ours === node) nodeAgrees.ours++;
    if (lib === node) nodeAgrees.library++;
    if (hyb === node) nodeAgrees.hybrid++;
  }
  if (lib !== ours) differs.library.push(`${q.where} ${q.subpath}: ours ${ours}, resolve.exports ${lib}${withNode}`);
  if (hyb !== ours) differs.hybrid.push(`${q.where} ${q.subpath}: ours ${ours}, hybrid ${hyb}${withNode}`);
}

console.log(
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log(`resolve.exports installed: ${weight.packages} package(s), ${(weight.bytes / 1024).toFixed(1)} KiB`);
console.log(
  `queries: ${queries.length} (${queries.length - PATTERN_CASES.length} from fixture/example package.json files, ${PATTERN_CASES.length} pattern cases)`,
);
for (const key of ['library', 'hybrid']) {
  console.log(`${key === 'library' ? 'resolve.exports as it is' : 'hybrid (our conditions, its subpaths)'}: ${differs[key].length} answer(s) differ`);
  for (const line of differs[key]) console.log(`  ${line}`);
}
console.log(
  `pattern cases Node answers the same: ours ${nodeAgrees.ours}/${PATTERN_CASES.length}, resolve.exports ${nodeAgrees.library}/${PATTERN_CASES.length}, hybrid ${nodeAgrees.hybrid}/${PATTERN_CASES.length}`,
);
console.log(
  `median µs per query: ours ${median(times.ours).toFixed(1)}, resolve.exports ${median(times.library).toFixed(1)}, hybrid ${median(times.hybrid).toFixed(1)}`,
);
