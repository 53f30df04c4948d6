/**
 * bench/run-latency: median and p95 latency of `POST /workflow/run` for a one-step workflow (`echo`), against
 * the same workflow started and awaited directly with @temporalio/client on the same server, interleaved.
 * Prints the ratio API / direct. Target: ≤ 1.15.  Usage: node bench/run-latency/bench.mjs [iterations=200]
 */
import { randomUUID } from 'node:crypto';
import { fmt, percentile, startStack } from '../api-support/stack.mjs';

const N = Number(process.argv[2] ?? 200);
const WARMUP = 20;
const stack = await startStack();
const api = [];
const direct = [];

async function viaApi(i) {
  const t = performance.now();
  const res = await fetch(`${stack.url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'echo', input: { i } }),
  });
  const body = await res.json();
  const ms = performance.now() - t;
  if (res.status !== 200 || body.status !== 'completed') throw new Error(`API run failed: ${res.status} ${JSON.stringify(body)}`);
  return ms;
}

async function viaClient(i) {
  const t = performance.now();
  const handle = await stack.client.workflow.start('echo', { taskQueue: stack.catalog, workflowId: randomUUID(), args: [{ i }] });
  await handle.result();
  return performance.now() - t;
}

try {
  for (let i = 0; i < WARMUP; i++) {
    await viaApi(i);
    await viaClient(i);
  }
  for (let i = 0; i < N; i++) {
    // Interleaved, alternating which goes first.
    if (i % 2 === 0) {
      api.push(await viaApi(i));
      direct.push(await viaClient(i));
    } else {
      direct.push(await viaClient(i));
      api.push(await viaApi(i));
    }
  }
  const a50 = percentile(api, 50),
    a95 = percentile(api, 95),
    d50 = percentile(direct, 50),
    d95 = percentile(direct, 95);
  console.log(`run-latency: ${N} interleaved runs of a one-step workflow`);
  console.log(`  POST /workflow/run      p50 ${fmt(a50)} ms   p95 ${fmt(a95)} ms`);
  console.log(`  @temporalio/client      p50 ${fmt(d50)} ms   p95 ${fmt(d95)} ms`);
  console.log(`  ratio (API / direct)    p50 ${fmt(a50 / d50, 3)}   p95 ${fmt(a95 / d95, 3)}   (target ≤ 1.15)`);
} finally {
  await stack.close();
}
