import { emit } from './registry.js';
import type { CostPayload, HttpRequestPayload, LlmUsagePayload } from './types.js';

/** `fetch` init plus the price of the call in USD (default 0), for paid APIs. */
export type TracedRequestInit = RequestInit & { cost?: number };

/**
 * `fetch` for steps: performs the request with the global `fetch`, then emits `http:request`
 * (`{ method, url, status, durationMs, error? }`) and `cost:http:request` (`{ cost, currency: 'USD' }`), which
 * count in the running activity's `aggregations`. Rejects exactly as `fetch` does.
 */
export async function tracedFetch(input: string | URL | Request, init: TracedRequestInit = {}): Promise<Response> {
  const { cost = 0, ...rest } = init;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = (rest.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const t0 = performance.now();
  try {
    const res = await fetch(input, rest);
    emit<HttpRequestPayload>('http:request', { method, url, status: res.status, durationMs: Math.round(performance.now() - t0) });
    return res;
  } catch (err) {
    emit<HttpRequestPayload>('http:request', { method, url, status: null, durationMs: Math.round(performance.now() - t0), error: (err as Error).message });
    throw err;
  } finally {
    emit<CostPayload & { method: string; url: string }>('cost:http:request', { method, url, cost, currency: 'USD' });
  }
}

/**
 * Reports one LLM call made by a step: emits `cost:llm:request` with `{ model, inputTokens, outputTokens,
 * totalTokens, cost, currency }`; tokens and cost (USD) add to the activity's `aggregations`.
 */
export function reportLlmUsage(usage: { model: string; inputTokens: number; outputTokens: number; cost?: number }): void {
  emit<LlmUsagePayload>('cost:llm:request', {
    model: usage.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.inputTokens + usage.outputTokens,
    cost: usage.cost ?? 0,
    currency: 'USD',
  });
}
