/**
 * Soak: many runs through the API, on a worker started from a build (`skein build`, then `skein worker <buildDir>`)
 * and on one started from the project (`skein worker <projectDir>`), each on its own catalog, against a real Temporal
 * dev server and the API in a process of its own. Every round starts one run on each worker, cycling through a mix of
 * the examples project (a copy, so its caches stay out of the repository):
 *   - `onboard`: steps, a shared step, a child workflow from an external package, an evaluator;
 *   - `summarize`: steps and an evaluator;
 *   - `fanout` with an empty text: parallel steps, one of which fails with a FatalError;
 *   - `approval`: started, then a `comment` and a `decide` signal, then its result;
 *   - `approval` started and terminated (a run that ends badly);
 *   - `summarize` with an input its schema refuses inside the workflow (a failed run).
 * Figures: the resident memory (VmRSS) of the API and of each worker after round 1,000 and after the last round,
 * read two ways: while serving (the median of samples taken every 500 ms during the last tenth of the rounds before
 * it, every process at the same moments: the same load at both points) and at rest (once the round's runs finished
 * and the processes were idle for 10 s: the median of 5 samples, 500 ms apart); target, for the figure while serving:
 * the last within 15% of the first. The API (started by `spawnApi`, with `--expose-gc`) is also sampled right
 * after a full garbage collection, with its V8 heap in use: what it holds rather than what V8 has not given back. Also runs/s and the outcome counts (every run must end as its kind expects).
 *
 *   npm run build && node bench/soak/run.mjs [--runs 10000] [--concurrency 8] [--checkpoint 1000]
 *
 * The machine's load average is printed with the figures.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { spawnApi } from '../api-support/stack.mjs';
import { spawnWorker } from '../support/worker-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const RUNS = option('--runs', 10_000);
const CONCURRENCY = option('--concurrency', 8);
const CHECKPOINT = Math.min(option('--checkpoint', 1_000), RUNS);
/** Bound of one run's round trips (ms); `POST /workflow/run` waits as long (a loaded machine needs more than 30 s). */
const RUN_TIMEOUT_MS = 120_000;
/** What a run that came back without a status answered. */
const statusOf = (r) => r.body?.status ?? `HTTP ${r.status} ${r.body?.error ?? ''}`.trim();
const bin = path.join(repo, 'packages/cli/bin/skein.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Bytes as whole megabytes (10^6). */
const mb = (b) => Math.round(b / 1e6);

function rssOf(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
}

const work = mkdtempSync(path.join(tmpdir(), 'skein-soak-'));
// Inside the repository, so the copy resolves @skein/core and the external package from its node_modules.
const project = path.join(repo, 'bench', '.generated', 'soak-project');
rmSync(project, { recursive: true, force: true });
cpSync(path.join(repo, 'examples'), project, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
const buildDir = path.join(work, 'build');

const temporal = await locateTemporal();
const server = await startDevServer({ binary: temporal.path });
const baseEnv = {
  ...process.env,
  TEMPORAL_ADDRESS: server.address,
  SKEIN_LOG_PRETTY: '0',
  SKEIN_LOG_LEVEL: 'info',
  SKEIN_TRACE_DIR: path.join(work, 'traces'),
};
const children = [];
/** Stops what is not in `children` (the API). */
const stops = [];

async function call(url, method, route, body) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The run kinds, each returning the outcome it expects and the one it got. */
const KINDS = [
  async (api, catalog, i) => {
    const r = await call(api, 'POST', '/workflow/run', {
      workflowName: 'onboard',
      catalog,
      input: { name: `Ada ${i}`, email: `ada${i}@example.com` },
      timeout: RUN_TIMEOUT_MS,
    });
    return ['completed', statusOf(r)];
  },
  async (api, catalog, i) => {
    const r = await call(api, 'POST', '/workflow/run', {
      workflowName: 'summarize',
      catalog,
      input: { text: `Soak run ${i}. Short text, two sentences.` },
      timeout: RUN_TIMEOUT_MS,
    });
    return ['completed', statusOf(r)];
  },
  async (api, catalog, i) => {
    const r = await call(api, 'POST', '/workflow/run', { workflowName: 'fanout', catalog, input: { texts: [`a b ${i}`, '', 'c'] }, timeout: RUN_TIMEOUT_MS });
    const failedStep = r.body?.output?.[1]?.error === 'FatalError';
    return ['completed+failed step', failedStep ? `${r.body?.status}+failed step` : statusOf(r)];
  },
  async (api, catalog, i) => {
    const s = await call(api, 'POST', '/workflow/start', { workflowName: 'approval', catalog, input: { request: `r${i}`, approver: 'ada' } });
    const id = encodeURIComponent(s.body.workflowId);
    await call(api, 'POST', `/workflow/${id}/signal/comment`, { payload: { text: 'looks fine' } });
    await call(api, 'POST', `/workflow/${id}/signal/decide`, { payload: { approved: true, by: 'ada' } });
    for (let t = 0; t < 600; t++) {
      const r = await call(api, 'GET', `/workflow/${id}/result`);
      if (r.status === 200) return ['approved', r.body?.output?.state ?? r.body?.state];
      if (r.status !== 409) return ['approved', `HTTP ${r.status}`];
      await sleep(50);
    }
    return ['approved', 'no result'];
  },
  async (api, catalog, i) => {
    const s = await call(api, 'POST', '/workflow/start', { workflowName: 'approval', catalog, input: { request: `t${i}`, approver: 'bob' } });
    const t = await call(api, 'POST', `/workflow/${encodeURIComponent(s.body.workflowId)}/runs/${s.body.runId}/terminate`, { reason: 'soak' });
    return ['terminated', t.status === 200 ? 'terminated' : `HTTP ${t.status}`];
  },
  async (api, catalog) => {
    const r = await call(api, 'POST', '/workflow/run', { workflowName: 'summarize', catalog, input: { text: '', keywords: 99 }, timeout: RUN_TIMEOUT_MS });
    return ['refused', r.status === 400 || r.body?.status === 'failed' ? 'refused' : `HTTP ${r.status} ${r.body?.status}`];
  },
];

/** Runs rounds [from, to) on every catalog (round i = run i on each), `CONCURRENCY` in flight per catalog; counts outcomes. */
async function rounds(api, catalogs, from, to, outcomes, onRun) {
  await Promise.all(
    catalogs.map(async (catalog) => {
      let next = from;
      const lane = async () => {
        while (next < to) {
          const i = next++;
          const kind = i % KINDS.length;
          let got;
          let want;
          try {
            [want, got] = await KINDS[kind](api, catalog, i);
          } catch (err) {
            want = 'an answer within the bound';
            got = `error: ${err.message}`;
          }
          const key = `${catalog} kind ${kind}: ${got === want ? 'ok' : `expected ${want}, got ${got}`}`;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
          onRun?.();
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    }),
  );
}

/**
 * The resident set of each process at rest (bytes by name): the median of 5 samples, 500 ms apart, after 10 s of
 * idleness, every process sampled at the same moments. Idle for 8 s or more, V8's memory reducer runs a collection
 * that gives memory back: a process sampled on one side of it at the checkpoint and on the other at the end would
 * show a growth (or a shrink) that is only when the sample fell, so every process and both checkpoints are sampled
 * after it.
 */
async function settledRss(processes) {
  await sleep(10_000);
  const xs = Object.fromEntries(Object.keys(processes).map((name) => [name, []]));
  for (let k = 0; k < 5; k++) {
    for (const [name, pid] of Object.entries(processes)) xs[name].push(rssOf(pid));
    await sleep(500);
  }
  return Object.fromEntries(Object.entries(xs).map(([name, samples]) => [name, median(samples)]));
}

try {
  const built = spawn(process.execPath, [bin, 'build', project, '--out', buildDir], { env: baseEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const buildCode = await new Promise((r) => built.once('exit', r));
  if (buildCode !== 0) throw new Error(`skein build exited with ${buildCode}`);
  const api = await spawnApi({ catalog: 'soak-build', address: server.address }, { ...baseEnv, SKEIN_CATALOG: 'soak-build' });
  stops.push(() => api.stop());
  /** The API's resident set and V8 heap in use right after a full collection (bytes). */
  const collected = async () => {
    const m = await api.memory();
    return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal };
  };
  const fromBuild = await spawnWorker(bin, buildDir, { ...baseEnv, SKEIN_CATALOG: 'soak-build' });
  const fromProject = await spawnWorker(bin, project, { ...baseEnv, SKEIN_CATALOG: 'soak-project' });
  children.push(fromBuild.child, fromProject.child);
  const processes = { api: api.pid, 'worker from build': fromBuild.child.pid, 'worker from project': fromProject.child.pid };
  const catalogs = ['soak-build', 'soak-project'];
  const outcomes = new Map();
  const t0 = performance.now();
  // A progress line on stderr every 1,000 runs (a full soak takes an hour or more): runs so far, runs/s, resident sets now.
  let done = 0;
  const progress = () => {
    if (++done % 1000 !== 0) return;
    const rss = Object.entries(processes).map(([name, pid]) => `${name} ${mb(rssOf(pid))}`);
    console.error(
      `soak: ${done} runs, ${(done / ((performance.now() - t0) / 1000)).toFixed(1)} runs/s, load ${loadavg()[0].toFixed(1)}; RSS now: ${rss.join(', ')}`,
    );
  };
  /** RSS samples while serving: `{ done, rss: { [name]: bytes } }` every 500 ms. */
  const serving = [];
  const sampler = setInterval(() => serving.push({ done, rss: Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, rssOf(pid)])) }), 500);
  /** Each process's median RSS while serving the last tenth of the rounds before round `round` (bytes by name). */
  const servingRss = (round) => {
    const window = serving.filter((s) => s.done > round * catalogs.length * 0.9 && s.done <= round * catalogs.length);
    return Object.fromEntries(Object.keys(processes).map((name) => [name, median(window.map((s) => s.rss[name]))]));
  };
  await rounds(api.url, catalogs, 0, CHECKPOINT, outcomes, progress);
  const firstServing = servingRss(CHECKPOINT);
  const atCheckpoint = performance.now();
  const first = await settledRss(processes);
  const firstCollected = await collected();
  console.error(
    `soak: checkpoint after run ${CHECKPOINT}: ${Object.entries(first)
      .map(([name, rss]) => `${name} ${mb(rss)}`)
      .join(', ')}; API after a full GC ${mb(firstCollected.rss)}`,
  );
  const t1 = performance.now();
  await rounds(api.url, catalogs, CHECKPOINT, RUNS, outcomes, progress);
  clearInterval(sampler);
  const lastServing = servingRss(RUNS);
  // Runs/s counts the rounds only, not the checkpoint's rest.
  const seconds = (performance.now() - t1 + (atCheckpoint - t0)) / 1000;
  const last = await settledRss(processes);
  const lastCollected = await collected();

  console.log(
    `soak: ${RUNS} runs on each of 2 workers (${RUNS * catalogs.length} in all), ${CONCURRENCY} in flight per worker, ` +
      `${((RUNS * catalogs.length) / seconds).toFixed(1)} runs/s; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  for (const name of Object.keys(processes)) {
    const growth = lastServing[name] / firstServing[name] - 1;
    console.log(
      `  ${name.padEnd(20)} RSS while serving, runs ${CHECKPOINT * 0.9}-${CHECKPOINT}: ${mb(firstServing[name])} MB, runs ${RUNS * 0.9}-${RUNS}: ` +
        `${mb(lastServing[name])} MB, growth ${(growth * 100).toFixed(1)}% (target ≤ 15%)${growth > 0.15 ? '  OVER' : ''}; ` +
        `at rest after run ${CHECKPOINT} ${mb(first[name])} MB, after run ${RUNS} ${mb(last[name])} MB (${((last[name] / first[name] - 1) * 100).toFixed(1)}%)`,
    );
  }
  const pct = (a, b) => `${((b / a - 1) * 100).toFixed(1)}%`;
  console.log(
    `  API after a full GC     RSS ${mb(firstCollected.rss)} → ${mb(lastCollected.rss)} MB (${pct(firstCollected.rss, lastCollected.rss)}), ` +
      `V8 heap in use ${mb(firstCollected.heapUsed)} → ${mb(lastCollected.heapUsed)} MB (${pct(firstCollected.heapUsed, lastCollected.heapUsed)}), ` +
      `committed ${mb(firstCollected.heapTotal)} → ${mb(lastCollected.heapTotal)} MB`,
  );
  console.log('  outcomes:');
  for (const [key, n] of [...outcomes].sort()) console.log(`    ${key}: ${n}`);
} finally {
  await Promise.all(stops.map((stop) => stop().catch(() => {})));
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
