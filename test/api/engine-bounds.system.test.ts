/**
 * The API's bounded waits against a real dev server reached through a TCP proxy that can cut or slow it: with the
 * engine gone, requests fail within the contract's 2 s, `POST /workflow/run` does not wait past its `timeout`, and
 * `onFatal` fires after the configured failed health checks; with a slow engine, a run answers 408 at its own
 * `timeout`, not at the engine deadline. A system file that runs alone (`SYSTEM_ALONE`): it asserts reaction times
 * of a few hundred milliseconds, which another file's load on two cores would stretch.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApiServer, loadApiConfig } from '@skein/api';
import { eventually, rawExchange, startHarness, type Harness } from './support.js';

let h: Harness;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A raw exchange with `base` or the harness's API (no OpenAPI validation: some of these never reach a route). */
const raw = (route: string, init: RequestInit & { base?: string } = {}) => rawExchange((init.base ?? h.url) + route, init);

const json = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

/**
 * A TCP proxy in front of the dev server, for one API only: `delay(ms)` holds every byte the API sends by that
 * long (a reachable but slow engine); `cut()` closes it and every connection through it (the engine is gone).
 */
async function engineProxy(engineAddress: string) {
  const [engineHost, enginePort] = engineAddress.split(':');
  let delayMs = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(enginePort), engineHost);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      if (delayMs === 0) upstream.write(chunk);
      else setTimeout(() => upstream.destroyed || upstream.write(chunk), delayMs);
    });
    upstream.pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    delay: (ms: number) => void (delayMs = ms),
    cut() {
      delayMs = 0;
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

describe('bounded waits with the engine down', () => {
  it('requests fail within 2 s, run does not wait past its timeout, and onFatal fires on schedule', async () => {
    const proxy = await engineProxy(h.address);
    const api = await createApiServer(
      loadApiConfig({
        PORT: '0',
        SKEIN_CATALOG: h.catalog,
        TEMPORAL_ADDRESS: proxy.address,
        SKEIN_ENGINE_CHECK_INTERVAL_MS: '500',
        SKEIN_ENGINE_CHECK_FAILURES: '3',
      }),
      { logger: silent },
    );
    const base = (await api.listen()).url;
    let fatalAt = 0;
    api.onFatal(() => (fatalAt = Date.now()));
    try {
      expect((await raw('/workflow/catalog', { base })).status).toBe(200);
      proxy.cut();
      const downAt = Date.now();
      for (const route of ['/workflow/some-id/status', '/workflow/catalog/elsewhere']) {
        const t0 = Date.now();
        const res = await raw(route, { base });
        expect(res.status).toBe(500);
        expect(Date.now() - t0).toBeLessThan(2_500);
      }
      const t0 = Date.now();
      const run = await raw('/workflow/run', { base, ...json(JSON.stringify({ workflowName: 'echo', catalog: 'not-cached', timeout: 1000 })) });
      // Unreachable (500 InternalError) or, when the last attempt is still connecting at the run's 1 s timeout,
      // not accepted in time (408 with the workflowId): never a wait past the timeout plus the 2 s bound.
      expect([500, 408], run.text).toContain(run.status);
      if (run.status === 408) expect(run.body).toMatchObject({ error: 'WorkflowExecutionTimedOutError', workflowId: expect.any(String) });
      expect(Date.now() - t0).toBeLessThan(2_500);
      await eventually(async () => fatalAt > 0, 10_000, 20);
      expect(fatalAt - downAt).toBeLessThanOrEqual(500 * 3 + 1_000);
    } finally {
      proxy.cut();
      await api.close();
    }
  });
});

describe('run honours its timeout with a slow engine', () => {
  it('a start the engine is too slow to accept answers 408 with the workflowId at the timeout, not the engine deadline', async () => {
    const proxy = await engineProxy(h.address);
    const api = await createApiServer(
      loadApiConfig({ PORT: '0', SKEIN_CATALOG: h.catalog, TEMPORAL_ADDRESS: proxy.address, SKEIN_ENGINE_TIMEOUT_MS: '8000' }),
      { logger: silent },
    );
    const base = (await api.listen()).url;
    try {
      // A first run while the engine is fast: the catalog is looked up and the connection is warm.
      const warm = await raw('/workflow/run', { base, ...json(JSON.stringify({ workflowName: 'echo', input: 1, timeout: 20_000 })) });
      expect(warm.status, warm.text).toBe(200);
      proxy.delay(3_000);
      const workflowId = `slow-start-${Date.now()}`;
      const t0 = Date.now();
      const res = await raw('/workflow/run', { base, ...json(JSON.stringify({ workflowName: 'echo', input: 2, workflowId, timeout: 700 })) });
      const elapsed = Date.now() - t0;
      expect(res.status, res.text).toBe(408);
      expect(res.body).toMatchObject({ error: 'WorkflowExecutionTimedOutError', workflowId });
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(elapsed).toBeGreaterThanOrEqual(650);
      expect(elapsed).toBeLessThan(2_500);
      // The start itself goes on after the 408 and lands once the proxy lets it through: wait for it, so that no
      // call of this API is still in flight (and retried by the SDK on a closed connection) when it is torn down.
      await expect.poll(async () => (await raw(`/workflow/${workflowId}/status`)).status, { timeout: 15_000, interval: 250 }).toBe(200);
    } finally {
      proxy.cut();
      await api.close();
    }
  });
});
