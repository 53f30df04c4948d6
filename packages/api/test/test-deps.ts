/**
 * An app under test that reaches no engine (routing, errors, rendering): its `Deps`, with `overrides` for what a
 * test gives it (a stand-in client, a logger), and the app served on a loopback port.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createApp } from '../src/app.js';
import { loadApiConfig } from '../src/config.js';
import { ApiMetrics } from '../src/metrics/registry.js';
import type { Deps, RouteDef } from '../src/route.js';

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

/** Serves `routes` with `deps` on a free loopback port. @returns its base URL and a `close()` that waits for the server to close. */
export async function serveApp(deps: Deps, routes: RouteDef[]): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer(createApp(deps, routes).callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.close();
      await once(server, 'close');
    },
  };
}
