/**
 * Restart benchmark of `skein worker <projectDir>` on the 1,000-workflow generated project
 * (bench/support/generated-project.mjs, 200 packages x 5), against a real Temporal dev server and API started here:
 * from spawning the worker (a fresh Node process) to the first completed `POST /workflow/run`:
 * - restart after editing one step file (a new build ID that must become current before anything runs, the edit is
 *   what runs): target <= 3 s;
 * - warm restart right after it, nothing changed (the build is already current): target <= 2 s.
 * Each line also gives the engine registration (`startup.connectMs`) and, for a new build, the part of it the engine
 * took to make the build current (`startup.promoteMs`: Temporal's SetWorkerDeploymentCurrentVersion).
 * With `--compare <repo>` (another checkout of Skein, built, e.g. the main branch) the same figures are measured for
 * that checkout in the same run, interleaved run by run, each on its own copy of the project and its own catalog, so
 * that the machine's load hits both alike. Each figure is printed with the machine's load average.
 *
 *   npm run build && node bench/worker-restart/run.mjs [--runs 3] [--compare /path/to/other/checkout]
 *
 * Each side's project lives in a temp folder whose parent's node_modules links to that side's node_modules, so the
 * workers import that side's Skein. Figures are medians over --runs, after one cold start per side (not reported).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApiServer, loadApiConfig } from '@skein/api';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { generateProject } from '../support/generated-project.mjs';
import { spawnWorker } from '../support/worker-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', '3')) || 3;
const compare = option('--compare', undefined);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const load = () => loadavg()[0].toFixed(2);

// A page for the generated steps to fetch: short, so the original workflow answers { ok: false }.
const page = createServer((_req, res) => res.end('short page'));
await new Promise((r) => page.listen(0, '127.0.0.1', r));
const pageUrl = `http://127.0.0.1:${page.address().port}/`;
const input = { url: pageUrl };

const temporal = await locateTemporal();
const server = await startDevServer({ binary: temporal.path });
const temps = [];

/** One side of the comparison: a checkout of Skein, its copy of the project, its catalog and an API on it. */
async function side(name, checkout) {
  const parent = mkdtempSync(path.join(tmpdir(), `skein-restart-${name}-`));
  temps.push(parent);
  symlinkSync(path.join(checkout, 'node_modules'), path.join(parent, 'node_modules'), 'dir');
  const dir = path.join(parent, 'project');
  generateProject(dir, { packages: 200, workflows: 5 });
  const catalog = `restart-${name}`;
  const api = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: server.address, PORT: '0', SKEIN_CATALOG: catalog }), {
    logger: pino({ level: 'silent' }),
  });
  const { url } = await api.listen();
  return { name, bin: path.join(checkout, 'packages/cli/bin/skein.js'), dir, catalog, api, url, warm: [], edited: [] };
}

/** Spawns the side's worker, runs wf_0_0 once through its API; resolves with the timings, stops the worker. */
async function startAndRun(s) {
  const t0 = performance.now();
  const { child, ready, readyMs } = await spawnWorker(s.bin, s.dir, {
    ...process.env,
    TEMPORAL_ADDRESS: server.address,
    SKEIN_CATALOG: s.catalog,
    SKEIN_LOG_PRETTY: '0',
    SKEIN_LOG_LEVEL: 'info',
    SKEIN_TRACE_DIR: 'off',
  });
  const res = await fetch(`${s.url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'wf_0_0', input, timeout: 60_000 }),
  });
  const body = await res.json();
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  if (body.status !== 'completed') throw new Error(`${s.name}: run did not complete: ${JSON.stringify(body)}`);
  const figure = { ms, readyMs, startup: ready.startup, output: body.output, load: load() };
  console.error(JSON.stringify({ side: s.name, ms: Math.round(ms), readyMs: Math.round(readyMs), startup: ready.startup, load: figure.load }));
  return figure;
}

const sides = [await side('this', repo)];
if (compare) sides.push(await side('compare', path.resolve(compare)));
try {
  // One cold start per side fills its caches (not reported).
  for (const s of sides) await startAndRun(s);
  for (let i = 0; i < RUNS; i++) {
    for (const s of sides) {
      // A new edit each round, never back to an earlier build (a build that was replaced is not made current again by a
      // restart); then a restart of that same build without a change.
      const stepFile = path.join(s.dir, 'node_modules/@bench/pkg-0/workflows/wf_0_0/steps.js');
      s.source ??= readFileSync(stepFile, 'utf8');
      // The edit makes the page look long and wordy: only the edited code answers { ok: true }.
      writeFileSync(
        stepFile,
        s.source.replace(
          'fn: async (text) => ({ length: text.length, words: text.split(/\\s+/).length }),',
          `fn: async () => ({ length: 5000 + ${i}, words: 50 }),`,
        ),
      );
      const r = await startAndRun(s);
      if (r.output.ok !== true) throw new Error(`${s.name}: the edited step did not run: ${JSON.stringify(r.output)}`);
      s.edited.push(r);
    }
    for (const s of sides) s.warm.push(await startAndRun(s));
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores (a shared machine: other work slows every figure)`,
  );
  console.log(`1,000-workflow project, spawn -> first completed POST /workflow/run, median of ${RUNS} (load average at each run in brackets):`);
  for (const s of sides) {
    const line = (label, rs, target) => {
      const m = median(rs.map((r) => r.ms));
      const reg = median(rs.map((r) => r.startup.connectMs));
      const promoted = rs.filter((r) => r.startup.promoteMs !== null && r.startup.promoteMs !== undefined);
      const promote = promoted.length > 0 ? `, of which the engine making the build current ${fmt(median(promoted.map((r) => r.startup.promoteMs)))}` : '';
      const runs = rs.map((r) => `${fmt(r.ms)} [${r.load}]`).join(', ');
      console.log(
        `  ${s.name.padEnd(8)} ${label}: ${fmt(m)} (engine registration ${fmt(reg)}${promote}; runs ${runs}); target <= ${fmt(target)}: ${m <= target ? 'met' : 'MISSED'}`,
      );
    };
    line('warm restart, no change     ', s.warm, 2000);
    line('restart after one step edit ', s.edited, 3000);
  }
} finally {
  for (const s of sides) await s.api.close();
  await server.stop?.();
  page.close();
  for (const t of temps) rmSync(t, { recursive: true, force: true });
}
