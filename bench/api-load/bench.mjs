/**
 * bench/api-load: 200 concurrent `POST /workflow/run` of a trivial workflow (`echo`) with autocannon.
 * Prints throughput, latency p50/p99, errors (target 0) and the API process memory before and after, then the same
 * load straight through @temporalio/client (start + result) in the same run: its runs/s and p50/p99, and the ratios.
 * Usage: node bench/api-load/bench.mjs [durationSeconds=20] [connections=200]
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { fmt, spawnApi, startStack } from '../api-support/stack.mjs';

const DURATION = Number(process.argv[2] ?? 20);
const CONNECTIONS = Number(process.argv[3] ?? 200);
const stack = await startStack();
const mb = (n) => `${fmt(n / 1024 / 1024)} MiB`;
// The API under test runs in its own process so its memory is measured alone.
const served = await spawnApi(stack);
const url = served.url;
const memory = served.memory;
try {
  // Warm up (catalog cache, connections, JIT).
  for (let i = 0; i < 20; i++) {
    await (
      await fetch(`${url}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'echo', input: i }),
      })
    ).json();
  }
  const before = await memory();
  const nonCompleted = { count: 0 };
  const statuses = new Map();
  const result = await autocannon({
    url: `${url}/workflow/run`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'echo', input: { hello: 'load' } }),
    connections: CONNECTIONS,
    duration: DURATION,
    timeout: 60,
    setupClient(client) {
      client.on('body', (buf) => {
        const text = buf.toString();
        if (!text.includes('"status":"completed"')) {
          nonCompleted.count += 1;
          const type = /"error":"(\w+)"/.exec(text)?.[1] ?? 'other';
          statuses.set(type, (statuses.get(type) ?? 0) + 1);
        }
      });
    },
  });
  await new Promise((r) => setTimeout(r, 2000));
  const after = await memory();
  console.log(`api-load: ${CONNECTIONS} concurrent connections, ${DURATION} s, POST /workflow/run (echo, one step)`);
  console.log(`  throughput   ${fmt(result.requests.average)} req/s (total ${result.requests.total})`);
  console.log(`  latency      p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   max ${result.latency.max} ms`);
  console.log(`  errors       ${result.errors} transport, ${result.timeouts} timeouts, ${result.non2xx} non-2xx, ${nonCompleted.count} not completed`);
  if (statuses.size > 0) console.log(`  error types  ${[...statuses].map(([t, n]) => `${t} ${n}`).join(', ')}`);
  // Reference: the same load straight through @temporalio/client (start + result), to show what bounds throughput.
  let done = 0;
  let failed = 0;
  const latencies = [];
  const end = Date.now() + DURATION * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          const h = await stack.client.workflow.start('echo', { taskQueue: stack.catalog, workflowId: randomUUID(), args: [{ hello: 'load' }] });
          await h.result();
          // Counted like autocannon counts the API: only what completed within the window.
          if (Date.now() <= end) {
            latencies.push(performance.now() - t0);
            done += 1;
          }
        } catch {
          failed += 1;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN);
  const directRate = done / DURATION;
  console.log(
    `  reference    @temporalio/client directly, ${CONNECTIONS} concurrent: ${fmt(directRate)} runs/s, p50 ${pct(50)} ms   p99 ${pct(99)} ms, ${failed} errors`,
  );
  console.log(`  ratio        API/direct throughput ${fmt(result.requests.average / directRate)}   p99 ${fmt(result.latency.p99 / pct(99))}`);
  console.log(`  API memory   rss ${mb(before.rss)} → ${mb(after.rss)}   heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)} (after GC, 2 s idle)`);
} finally {
  await served.stop();
  await stack.close();
}
