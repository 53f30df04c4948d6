import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { startPrometheus, type Prometheus } from '../support/backends.js';
import { eventually } from '../support/poll.js';

/**
 * A real Prometheus scrapes the API's `/metrics` and a worker's endpoint while runs go through; PromQL then
 * finds the runs' labels, and the example queries of docs/operating.md answer.
 */
let stack: Stack;
let prometheus: Prometheus;

beforeAll(async () => {
  stack = await startStack('examples', {}, { metrics: { kind: 'prometheus', host: '127.0.0.1', port: 0 } });
  prometheus = await startPrometheus({ 'skein-api': `${stack.url}/metrics`, 'skein-worker': stack.worker.metrics!.url });
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  await stack?.close();
});

/** `fn`'s first value other than undefined, asking Prometheus every 500 ms for at most 30 s (`what` names it). */
async function inPrometheus<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
  return eventually(fn, 30_000, 500).catch((err: Error) => {
    throw new Error(`not in Prometheus within 30 s: ${what} (${err.message})`);
  });
}

describe('scraped by Prometheus', () => {
  it('holds the runs of both processes by route, workflow type, activity type and kind', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await stack.post('/workflow/run', { workflowName: 'onboard_customer', input: { name: `ada ${i}`, email: 'ada@example.com' } });
      expect(res.body.status).toBe('completed');
    }
    // A run whose input the workflow refuses fails (counted by type); an unknown workflow is a 404.
    const failed = await stack.post('/workflow/run', { workflowName: 'onboard_customer', input: { name: '', email: 'x' } });
    expect(failed.body.status).toBe('failed');
    const bad = await stack.post('/workflow/run', { workflowName: 'no_such_workflow', input: {} });
    expect(bad.status).toBe(404);

    const one = async (q: string) => {
      const r = await prometheus.query(q);
      return r.length > 0 ? r : undefined;
    };
    const up = await inPrometheus('both targets up', async () => {
      const t = await prometheus.targets();
      return t.length === 2 && t.every((x) => x.health === 'up') ? t : undefined;
    });
    expect(up.map((t) => t.job).sort()).toEqual(['skein-api', 'skein-worker']);

    const runs = await inPrometheus('4 runs by route (3 completed, 1 failed: both answer 200)', () =>
      one(
        'http_server_request_duration_seconds_count{job="skein-api",http_route="/workflow/run",http_request_method="POST",http_response_status_code="200"} == 4',
      ),
    );
    expect(runs).toHaveLength(1);
    await inPrometheus('the 404', () => one('http_server_request_duration_seconds_count{http_route="/workflow/run",http_response_status_code="404"} == 1'));
    await inPrometheus('workflows completed by type', () => one('temporal_workflow_completed{job="skein-worker",workflow_type="onboard"} == 3'));
    await inPrometheus('workflows failed by type', () => one('temporal_workflow_failed{job="skein-worker",workflow_type="onboard"} == 1'));
    await inPrometheus('child workflows completed', () => one('temporal_workflow_completed{workflow_type="welcome"} == 3'));
    await inPrometheus('evaluator outcomes', () =>
      one('skein_activity_outcomes_total{activity_type="onboard#scoreLead",kind="evaluator",outcome="completed"} == 3'),
    );
    await inPrometheus('engine calls by RPC', () => one('skein_api_engine_call_duration_seconds_count{rpc_method="StartWorkflowExecution"} >= 3'));
    await inPrometheus('readiness', () => one('skein_api_ready == 1'));
  });

  it("answers docs/operating.md's example queries", async () => {
    const queries = [
      // Error rate by workflow type.
      'sum by (workflow_type) (rate(temporal_workflow_failed[5m])) / sum by (workflow_type) (rate(temporal_workflow_completed[5m]) + rate(temporal_workflow_failed[5m]))',
      // Schedule-to-start p95 of workflow and activity tasks.
      'histogram_quantile(0.95, sum by (le, task_queue) (rate(temporal_workflow_task_schedule_to_start_latency_bucket[5m])))',
      'histogram_quantile(0.95, sum by (le, activity_type) (rate(temporal_activity_schedule_to_start_latency_bucket[5m])))',
      // Slow steps: p95 execution time by activity type.
      'topk(5, histogram_quantile(0.95, sum by (le, activity_type) (rate(temporal_activity_execution_latency_bucket[5m]))))',
      // API latency p95 by route.
      'histogram_quantile(0.95, sum by (le, http_route) (rate(http_server_request_duration_seconds_bucket[5m])))',
    ];
    for (const q of queries) {
      const result = await inPrometheus(q, async () => {
        const r = await prometheus.query(q);
        return r.length > 0 ? r : undefined;
      });
      for (const s of result) expect(Number.isNaN(s.value) || s.value >= 0).toBe(true);
    }
  });
});
