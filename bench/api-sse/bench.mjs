/**
 * bench/api-sse: latency from a signal being accepted (the engine answered SignalWorkflowExecution) to its
 * `history` frame (WorkflowExecutionSignaled) arriving on `GET /workflow/{id}/history/stream`.
 * Target: p50 < 100 ms on the dev server.  Usage: node bench/api-sse/bench.mjs [signals=100]
 */
import { createParser } from 'eventsource-parser';
import { fmt, percentile, startStack } from '../api-support/stack.mjs';

const N = Number(process.argv[2] ?? 100);
const stack = await startStack();
const controller = new AbortController();
try {
  const started = await (
    await fetch(`${stack.url}/workflow/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'waiter' }),
    })
  ).json();
  const res = await fetch(`${stack.url}/workflow/${started.workflowId}/history/stream`, { signal: controller.signal });
  const arrivals = new Map(); // signal index → arrival time
  let notify = () => {};
  const parser = createParser({
    onEvent(e) {
      if (e.event !== 'history') return;
      const ev = JSON.parse(e.data);
      if (ev.eventType !== 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED') return;
      arrivals.set(arrivals.size, performance.now());
      notify();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {}
  })();
  const handle = stack.client.workflow.getHandle(started.workflowId);
  const latencies = [];
  for (let i = 0; i < N; i++) {
    await handle.signal('ping');
    const accepted = performance.now();
    while (!arrivals.has(i)) await new Promise((r) => (notify = r));
    latencies.push(arrivals.get(i) - accepted);
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(`api-sse: ${N} signals, accepted → history frame`);
  console.log(
    `  p50 ${fmt(percentile(latencies, 50))} ms   p95 ${fmt(percentile(latencies, 95))} ms   max ${fmt(Math.max(...latencies))} ms   (target p50 < 100 ms)`,
  );
  await handle.terminate();
} finally {
  controller.abort();
  await stack.close();
}
