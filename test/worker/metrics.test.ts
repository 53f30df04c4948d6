import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { parseExposition, sample, type Exposition } from '../support/exposition.js';

/**
 * The worker's Prometheus endpoint (port 0 = a free port) on a real engine: Temporal Core's `temporal_*` metrics
 * and Skein's `skein_*` ones in one scrape, labelled by workflow and activity type, never by ids.
 */
let stack: Stack;
let server: http.Server;
let target: string;
const exported: string[] = [];

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/paid`;
  stack = await startStack(
    'fixtures/projects/runtime',
    {},
    {
      metrics: { kind: 'prometheus', host: '127.0.0.1', port: 0 },
      traceExporters: [
        { name: 'kept', export: async (trace) => void exported.push(trace.root.workflowId) },
        {
          name: 'broken',
          export: async () => {
            throw new Error('destination refused the trace');
          },
        },
      ],
    },
  );
});

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function scrape(): Promise<Exposition> {
  const res = await fetch(stack.worker.metrics!.url);
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

describe('worker metrics', () => {
  it('reports where they are', () => {
    expect(stack.worker.metrics).toEqual({ kind: 'prometheus', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/) });
  });

  it("holds Temporal Core's and Skein's metrics with the runs' labels", async () => {
    const ok = await stack.post('/workflow/run', { workflowName: 'costs', input: { url: target } });
    expect(ok.body.status).toBe('completed');
    const failed = await stack.post('/workflow/run', { workflowName: 'failing', input: 2 });
    expect(failed.body.status).toBe('failed');

    // Core exports on its own schedule: wait for the runs to show.
    let m: Exposition | undefined;
    await expect
      .poll(
        async () => {
          m = await scrape();
          return sample(m, 'temporal_workflow_completed', { workflow_type: 'costs', task_queue: stack.catalog });
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    m = m!;
    expect(sample(m, 'temporal_workflow_failed', { workflow_type: 'failing' })).toBe(1);
    expect(sample(m, 'temporal_activity_execution_failed', { activity_type: 'failing#explode' })).toBe(1);
    expect(m.get('temporal_workflow_task_schedule_to_start_latency')?.type).toBe('histogram');
    expect(m.get('temporal_worker_task_slots_available')?.type).toBe('gauge');

    expect(sample(m, 'skein_activity_outcomes_total', { activity_type: 'costs#callApi', kind: 'step', outcome: 'completed' })).toBe(1);
    expect(sample(m, 'skein_activity_outcomes_total', { activity_type: 'failing#explode', kind: 'step', outcome: 'failed' })).toBe(1);
    expect(sample(m, 'skein_cost_usd_sum', { workflow_type: 'costs', source: 'http' })).toBeCloseTo(0.75, 6);
    expect(sample(m, 'skein_cost_usd_count', { workflow_type: 'costs', source: 'http' })).toBe(2);
    expect(sample(m, 'skein_cost_usd_sum', { workflow_type: 'costs', source: 'llm' })).toBeCloseTo(0.01, 6);
    expect(sample(m, 'skein_llm_tokens_total', { workflow_type: 'costs', direction: 'input' })).toBe(100);
    expect(sample(m, 'skein_llm_tokens_total', { workflow_type: 'costs', direction: 'output' })).toBe(20);
    // The fixture's hook file has an onWorkflowStart hook that always throws.
    expect(sample(m, 'skein_hook_errors_total', { hook: 'onWorkflowStart' })).toBeGreaterThanOrEqual(2);
    expect(sample(m, 'skein_worker_validation_duration_seconds_count', {})).toBe(1);
    expect(m.get('skein_worker_bundle_cache_total')?.type).toBe('counter');
    await expect
      .poll(async () => sample(await scrape(), 'skein_trace_exports_total', { destination: 'broken', outcome: 'failed' }), { timeout: 10_000 })
      .toBe(2);
    expect(sample(await scrape(), 'skein_trace_exports_total', { destination: 'kept', outcome: 'ok' })).toBe(2);

    const text = await (await fetch(stack.worker.metrics!.url)).text();
    expect(text).not.toContain(ok.body.workflowId);
    expect(text).not.toContain(ok.body.runId);
  });
});
