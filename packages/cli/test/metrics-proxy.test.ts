import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startMetricsProxy } from '../src/dev/metrics-proxy.js';

describe("skein dev's stable worker metrics URL", () => {
  const upstreams: http.Server[] = [];
  afterAll(async () => {
    for (const s of upstreams) await new Promise((r) => s.close(r));
  });
  const upstream = async (body: string) => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    upstreams.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  };

  it('answers 503 with no worker, then whichever worker serves, at one URL', async () => {
    const proxy = await startMetricsProxy(0);
    try {
      expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(proxy.url)).status).toBe(503);
      proxy.target = await upstream('temporal_workflow_completed 1\n');
      const first = await fetch(proxy.url);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('text/plain; version=0.0.4');
      expect(await first.text()).toBe('temporal_workflow_completed 1\n');
      // A reload: the new worker exports on another port; the URL stays.
      proxy.target = await upstream('temporal_workflow_completed 2\n');
      expect(await (await fetch(proxy.url)).text()).toBe('temporal_workflow_completed 2\n');
      expect((await fetch(proxy.url.replace('/metrics', '/other'))).status).toBe(404);
      proxy.target = 'http://127.0.0.1:9/metrics';
      expect((await fetch(proxy.url)).status).toBe(502);
    } finally {
      await proxy.close();
    }
  });
});
