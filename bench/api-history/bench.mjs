/**
 * bench/api-history: page through a ~5 000-event closed history via `GET /workflow/{id}/runs/{rid}/history`
 * (pageSize 50) vs directly via @temporalio/client's workflowService (maximumPageSize 50), interleaved rounds.
 * The API under test runs in its own process, as in production. Prints events/s of each, the ratio API / direct
 * (target ≥ 0.9), the round trips each made, and the machine's load average.
 *
 * With `--baseline <checkout>`, the API of another checkout (for example the main branch, built) is measured in
 * the same rounds against the same engine and history, so the two are compared side by side.
 *
 *   npm run build && node bench/api-history/bench.mjs [--rounds 5] [--shape sequence|fanout] [--baseline /work/main]
 *     [--cpu-prof <dir>]
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { cpuMsOf, fmt, spawnApi, startStack } from '../api-support/stack.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ROUNDS = Number(option('--rounds', 5));
/** `sequence` (default): ~5 000 events in small batches, the usual shape. `fanout`: one ~5 000-event batch. */
const SHAPE = option('--shape', 'sequence');
const BASELINE = option('--baseline', undefined);
/** `--cpu-prof <dir>`: the API under test writes a V8 CPU profile there when it stops (open it in Chrome's DevTools). */
const PROFILE_DIR = option('--cpu-prof', undefined);
const WORKLOAD = { sequence: { workflowName: 'sequence', input: { n: 830 } }, fanout: { workflowName: 'fanout', input: { n: 1660 } } }[SHAPE];
if (!WORKLOAD) throw new Error(`--shape must be sequence or fanout, got ${SHAPE}`);

const stack = await startStack();
const served = await spawnApi(stack, {}, undefined, PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : []);
const baseline = BASELINE ? await spawnApi(stack, {}, path.resolve(BASELINE, 'bench/api-support/serve.mjs')) : undefined;

async function viaApi({ url, pid }, workflowId, runId) {
  const cpu = cpuMsOf(pid);
  let token = null;
  let events = 0;
  let pages = 0;
  const t = performance.now();
  for (;;) {
    const qs = new URLSearchParams({ pageSize: '50', ...(token ? { pageToken: token } : {}) });
    const res = await fetch(`${url}/workflow/${encodeURIComponent(workflowId)}/runs/${runId}/history?${qs}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(JSON.stringify(body));
    events += body.events.length;
    pages += 1;
    token = body.nextPageToken;
    if (!token) break;
  }
  return { events, pages, ms: performance.now() - t, cpuMs: cpuMsOf(pid) - cpu };
}

async function viaClient(workflowId, runId) {
  let token;
  let events = 0;
  let pages = 0;
  const t = performance.now();
  do {
    const res = await stack.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId, runId },
      maximumPageSize: 50,
      ...(token ? { nextPageToken: token } : {}),
    });
    events += res.history?.events?.length ?? 0;
    pages += 1;
    token = res.nextPageToken?.length ? res.nextPageToken : undefined;
  } while (token);
  return { events, pages, ms: performance.now() - t };
}

try {
  const res = await fetch(`${stack.url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...WORKLOAD, timeout: 600000 }),
  });
  const run = await res.json();
  if (run.status !== 'completed') throw new Error(JSON.stringify(run));
  const rates = { api: [], direct: [], baseline: [] };
  /** Per round: API / direct of that round (the machine's load moves less within a round than across rounds). */
  const ratios = { api: [], baseline: [] };
  /** CPU ms the API process spent per walk. */
  const cpu = { api: [], baseline: [] };
  let total = 0;
  let trips = '';
  for (let i = 0; i < ROUNDS; i++) {
    // The order within a round alternates, so neither side always runs first.
    const b0 = i % 2 === 1 && baseline ? await viaApi(baseline, run.workflowId, run.runId) : undefined;
    const a = await viaApi(served, run.workflowId, run.runId);
    const d = await viaClient(run.workflowId, run.runId);
    const b = b0 ?? (baseline ? await viaApi(baseline, run.workflowId, run.runId) : undefined);
    if (a.events !== d.events || (b && b.events !== d.events))
      throw new Error(`event counts differ: API ${a.events}, direct ${d.events}, baseline ${b?.events}`);
    total = a.events;
    trips = `API ${a.pages} requests of ≤ 50 events; engine ${d.pages} pages (its page size counts event batches)`;
    rates.api.push(a.events / (a.ms / 1000));
    rates.direct.push(d.events / (d.ms / 1000));
    ratios.api.push(d.ms / a.ms);
    cpu.api.push(a.cpuMs);
    if (b) {
      rates.baseline.push(b.events / (b.ms / 1000));
      ratios.baseline.push(d.ms / b.ms);
      cpu.baseline.push(b.cpuMs);
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const api = median(rates.api);
  const direct = median(rates.direct);
  console.log(
    `api-history: ${total} events (${SHAPE}), page size 50, ${ROUNDS} interleaved rounds (median); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`  via API                 ${fmt(api, 0)} events/s`);
  console.log(`  via @temporalio/client  ${fmt(direct, 0)} events/s`);
  console.log(`  ratio (API / direct)    ${fmt(api / direct, 3)}   (target ≥ 0.9); median of the rounds' own ratios ${fmt(median(ratios.api), 3)}`);
  console.log(`  API CPU per walk        ${fmt(median(cpu.api), 0)} ms (median; ${cpu.api.join(' / ')})`);
  if (baseline) {
    const base = median(rates.baseline);
    console.log(
      `  baseline API (${BASELINE}) ${fmt(base, 0)} events/s, ratio ${fmt(base / direct, 3)}; median of the rounds' own ratios ${fmt(median(ratios.baseline), 3)}; CPU per walk ${fmt(median(cpu.baseline), 0)} ms (${cpu.baseline.join(' / ')})`,
    );
  }
  console.log(`  round trips             ${trips}`);
} finally {
  await served.stop();
  await baseline?.stop();
  await stack.close();
}
