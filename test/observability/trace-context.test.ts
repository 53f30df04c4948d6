import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startHarness, type Harness } from '../api/support.js';

/**
 * What a caller's trace headers leave in a workflow's history, on a real dev server with tracing on: the
 * OpenTelemetry context the API hands to Temporal (the `_tracer-data` header of the run's first event) continues
 * the caller's W3C `traceparent`/`tracestate`, and carries none of its baggage. With a token configured, the
 * authenticated request continues it too. (The exporter points at a closed loopback port: spans are dropped, which
 * is all this test needs.)
 */
let h: Harness;
let guarded: ApiServer;
let guardedUrl: string;
const saved = { ...process.env };

const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');

beforeAll(async () => {
  // Tracing is a process setting (`OTEL_*`), read when the worker and the API start.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
  process.env.OTEL_BSP_SCHEDULE_DELAY = '60000';
  h = await startHarness();
  guarded = await createApiServer(
    loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: h.address, TEMPORAL_NAMESPACE: 'default', SKEIN_API_TOKEN: 's3cret' }),
    { logger: pino({ level: 'silent' }) },
  );
  guardedUrl = (await guarded.listen()).url;
}, 120_000);

afterAll(async () => {
  await guarded?.close();
  await h?.close();
  process.env = saved;
});

/** Starts `echo` through the API at `url` with `headers`; returns the carrier the run's first history event holds. */
async function carrierOf(url: string, headers: Record<string, string>): Promise<Record<string, string>> {
  const res = await fetch(`${url}/workflow/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ workflowName: 'echo', input: { t: 1 } }),
  });
  expect(res.status).toBe(200);
  const { workflowId, runId } = (await res.json()) as { workflowId: string; runId: string };
  const history = await h.client.workflow.getHandle(workflowId, runId).fetchHistory();
  const header = history.events?.[0]?.workflowExecutionStartedEventAttributes?.header?.fields?.['_tracer-data'];
  expect(header).toBeDefined();
  return defaultPayloadConverter.fromPayload(header!);
}

describe("a caller's trace context in a workflow's history", () => {
  const baggage = Array.from({ length: 180 }, (_, i) => `key${i}=value${i}`).join(',');

  it('continues traceparent and tracestate, and carries no baggage', async () => {
    const traceId = hex(32);
    const carrier = await carrierOf(h.url, { traceparent: `00-${traceId}-${hex(16)}-01`, tracestate: 'vendor=opaque', baggage });
    expect(carrier.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(carrier.tracestate).toBe('vendor=opaque');
    expect(carrier).not.toHaveProperty('baggage');
    expect(JSON.stringify(carrier)).not.toContain('key1=value1');
  });

  it('with a token, continues an authenticated caller’s trace, still without baggage', async () => {
    const traceId = hex(32);
    const carrier = await carrierOf(guardedUrl, { authorization: 'Bearer s3cret', traceparent: `00-${traceId}-${hex(16)}-01`, baggage });
    expect(carrier.traceparent).toMatch(new RegExp(`^00-${traceId}-`));
    expect(carrier).not.toHaveProperty('baggage');
  });
});
