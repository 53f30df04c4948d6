/**
 * The `Deps` of an app under test that reaches no engine (routing, errors, rendering), with `overrides` for what a
 * test gives it (a stand-in client, a logger).
 */
import { pino } from 'pino';
import { loadApiConfig } from '../src/config.js';
import { ApiMetrics } from '../src/metrics/registry.js';
import type { Deps } from '../src/route.js';

export function testDeps(overrides: Partial<Deps> = {}): Deps {
  return {
    client: undefined as never,
    config: loadApiConfig({ PORT: '0' }),
    catalogs: undefined as never,
    traces: undefined as never,
    health: { healthy: true },
    shutdown: new AbortController().signal,
    closing: new AbortController().signal,
    graceOver: new AbortController().signal,
    logger: pino({ level: 'silent' }),
    metrics: new ApiMetrics(() => true),
    ...overrides,
  };
}
