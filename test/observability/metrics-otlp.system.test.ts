import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { startPrometheus, type Prometheus } from '../support/backends.js';
import { eventually } from '../support/poll.js';

/**
 * `SKEIN_METRICS_OTLP`: the worker pushes the same metrics by OTLP instead of serving them, here into a real
 * Prometheus's OTLP receiver (which names counters with `_total` and histograms with their unit, as it
 * translates OpenTelemetry's names). Temporal's Runtime is process-wide, so this has a test file of its own.
 */
let stack: Stack;
let prometheus: Prometheus;

beforeAll(async () => {
  prometheus = await startPrometheus({}, { otlpReceiver: true });
  stack = await startStack('fixtures/projects/api-suite', {}, { metrics: { kind: 'otlp', url: `${prometheus.url}/api/v1/otlp/v1/metrics`, http: true } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await prometheus?.stop();
});

describe('worker metrics by OTLP', () => {
  it("reach the collector with Temporal's and Skein's names and the runs' labels", async () => {
    expect(stack.worker.metrics).toEqual({ kind: 'otlp', url: `${prometheus.url}/api/v1/otlp/v1/metrics` });
    // Right after its start, a new build may not be routed to yet (the catalog answers 404 with Retry-After).
    const res = await eventually(
      async () => {
        const answer = await stack.post('/workflow/run', { workflowName: 'echo', input: { value: 1 } });
        return answer.status === 404 && answer.body?.error === 'CatalogNotAvailableError' ? undefined : answer;
      },
      10_000,
      250,
    );
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 'completed' });
    const find = (q: string) =>
      eventually(
        async () => {
          const r = await prometheus.query(q);
          return r.length > 0 ? r : undefined;
        },
        30_000,
        500,
      ).catch(() => {
        throw new Error(`nothing for ${q}`);
      });
    const completed = await find(`{__name__=~"temporal_workflow_completed(_total)?", workflow_type="echo", task_queue="${stack.catalog}"}`);
    expect(completed[0]!.value).toBe(1);
    const steps = await find('{__name__=~"skein_activity_outcomes_total", activity_type="echo#identity", kind="step", outcome="completed"}');
    expect(steps[0]!.value).toBe(1);
  });
});
