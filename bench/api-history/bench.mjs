/**
 * bench/api-history: page through a ~5 000-event history via `GET /workflow/{id}/runs/{rid}/history`
 * (pageSize 50) vs directly via @temporalio/client's workflowService (maximumPageSize 50), interleaved rounds.
 * Prints events/s and the ratio API / direct. Target: ≥ 0.8.
 * Usage: node bench/api-history/bench.mjs [rounds=5] [sequence|fanout]
 */
import { fmt, spawnApi, startStack } from '../api-support/stack.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
/** `sequence` (default): ~5 000 events in small batches, the usual shape. `fanout`: one 1 660-event batch. */
const SHAPE = process.argv[3] ?? 'sequence';
const stack = await startStack();
// The API under test runs in its own process, as in production (its clients are elsewhere).
const served = await spawnApi(stack);

async function viaApi(workflowId, runId) {
  let token = null;
  let events = 0;
  let pages = 0;
  const t = performance.now();
  for (;;) {
    const qs = new URLSearchParams({ pageSize: '50', ...(token ? { pageToken: token } : {}) });
    const res = await fetch(`${served.url}/workflow/${encodeURIComponent(workflowId)}/runs/${runId}/history?${qs}`);
    const body = await res.json();
    if (res.status !== 200) throw new Error(JSON.stringify(body));
    events += body.events.length;
    pages += 1;
    token = body.nextPageToken;
    if (!token) break;
  }
  return { events, pages, ms: performance.now() - t };
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
    body: JSON.stringify({ workflowName: 'fanout', input: { n: 1660 }, timeout: 600000 }),
  });
  const run = await res.json();
  if (run.status !== 'completed') throw new Error(JSON.stringify(run));
  const apiRates = [];
  const directRates = [];
  let total = 0;
  let pages = '';
  for (let i = 0; i < ROUNDS; i++) {
    const a = await viaApi(run.workflowId, run.runId);
    const d = await viaClient(run.workflowId, run.runId);
    if (a.events !== d.events) throw new Error(`event counts differ: API ${a.events}, direct ${d.events}`);
    total = a.events;
    pages = `API ${a.pages} requests of ≤ 50 events; engine ${d.pages} pages (its page size counts event batches)`;
    apiRates.push(a.events / (a.ms / 1000));
    directRates.push(d.events / (d.ms / 1000));
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const api = median(apiRates);
  const direct = median(directRates);
  console.log(`api-history: ${total} events (${SHAPE}), page size 50, ${ROUNDS} interleaved rounds (median)`);
  console.log(`  via API                 ${fmt(api, 0)} events/s`);
  console.log(`  via @temporalio/client  ${fmt(direct, 0)} events/s`);
  console.log(`  ratio (API / direct)    ${fmt(api / direct, 3)}   (target ≥ 0.8)`);
  console.log(`  round trips            ${pages}`);
} finally {
  await served.stop();
  await stack.close();
}
