/**
 * Rebundling after the generated entry changed, with webpack's persistent cache warm, on the 1,000-workflow
 * generated project (bench/support/generated-project.mjs, 200 packages x 5): what a worker start pays on a bundle
 * cache miss that only the entry caused.
 * - another trace folder compiled into the bundle (a second worker of the project with its own `SKEIN_TRACE_DIR`);
 * - a workflow added (the project's entry lists one more).
 * Each run makes a fresh copy of the project, bundles it cold and writes webpack's cache (as a worker does after its
 * first start), then times the two rebundlings, each followed by its cache write. The figures are the bundling's
 * wall time (webpack in its own process, as in a worker start) and how many modules webpack built of how many.
 * No target: a figure of the start after such a change. With `--baseline <checkout>` (another checkout of Skein,
 * built) the same runs are made with its code, interleaved run by run, and the ratio is printed.
 *
 *   npm run build && node bench/bundle-entry/run.mjs [--runs 3] [--baseline /path/to/other/checkout]
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject } from '../support/generated-project.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', '3')) || 3;
const baseline = option('--baseline', undefined);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => loadavg()[0].toFixed(2);

/** One checkout's bundling code (its compiled discovery and worker). */
async function side(name, checkout) {
  const repo = path.resolve(checkout);
  const { discover } = await import(path.join(repo, 'packages/discovery/dist/index.js'));
  const { loadProject } = await import(path.join(repo, 'packages/worker/dist/host/load.js'));
  const { bundleWorkflows } = await import(path.join(repo, 'packages/worker/dist/bundle/bundle.js'));
  return { name, repo, discover, loadProject, bundleWorkflows, trace: [], added: [] };
}

/** Bundles the project at `dir` as it is now; resolves after webpack's cache is written. */
async function bundle(s, dir, traceDir) {
  const project = await s.loadProject(await s.discover(dir));
  const t0 = performance.now();
  const r = await s.bundleWorkflows(project, { cacheDir: path.join(dir, '.skein', 'bundles'), traceDir });
  const ms = performance.now() - t0;
  // The cache write runs in a detached process: keep this one alive until it is done.
  const keep = setInterval(() => {}, 1000);
  await r.persist?.();
  clearInterval(keep);
  return { ms, cache: r.cache, modules: r.modules ?? null, load: load() };
}

async function round(s) {
  const parent = mkdtempSync(path.join(tmpdir(), `skein-bundle-entry-${s.name}-`));
  try {
    symlinkSync(path.join(s.repo, 'node_modules'), path.join(parent, 'node_modules'), 'dir');
    const dir = path.join(parent, 'project');
    generateProject(dir, { packages: 200, workflows: 5 });
    await bundle(s, dir, path.join(dir, 'traces-a'));
    const trace = await bundle(s, dir, path.join(dir, 'traces-b'));
    mkdirSync(path.join(dir, 'extra'), { recursive: true });
    writeFileSync(
      path.join(dir, 'extra', 'workflow.js'),
      `import { workflow } from '@skein/core';\nexport default workflow({ name: 'extra_wf', fn: async (i) => i });\n`,
    );
    const added = await bundle(s, dir, path.join(dir, 'traces-b'));
    for (const [label, r] of [
      ['trace folder', trace],
      ['workflow added', added],
    ]) {
      if (r.cache !== 'miss') throw new Error(`${s.name} ${label}: expected a bundle cache miss, got ${r.cache}`);
      console.error(JSON.stringify({ side: s.name, case: label, ms: Math.round(r.ms), modules: r.modules, load: r.load }));
    }
    s.trace.push(trace);
    s.added.push(added);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

const sides = [await side('this', path.resolve(here, '../..'))];
if (baseline) sides.push(await side('baseline', baseline));
for (let i = 0; i < RUNS; i++) for (const s of sides) await round(s);

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${availableParallelism()} cores`,
);
console.log(`1,000-workflow project, bundling after the generated entry changed, webpack's cache warm, median of ${RUNS}:`);
for (const key of ['trace', 'added']) {
  const label = key === 'trace' ? 'another trace folder' : 'a workflow added   ';
  const figures = sides.map((s) => {
    const rs = s[key];
    const m = median(rs.map((r) => r.ms));
    const built = rs[0].modules ? `, webpack built ${median(rs.map((r) => r.modules.built))} of ${rs[0].modules.total} modules` : '';
    return { s, m, text: `${s.name} ${(m / 1000).toFixed(2)} s${built} (runs ${rs.map((r) => `${(r.ms / 1000).toFixed(2)} s [${r.load}]`).join(', ')})` };
  });
  const ratio = figures.length > 1 ? `; ratio ${(figures[0].m / figures[1].m).toFixed(2)}` : '';
  console.log(`  ${label}: ${figures.map((f) => f.text).join(' vs ')}${ratio}`);
}
