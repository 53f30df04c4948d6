import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scrape URL of the worker's metrics that outlives each worker `skein dev` swaps in; see {@link startMetricsProxy}. */
export interface MetricsProxy {
  /** The stable scrape URL (`http://127.0.0.1:<port>/metrics`). */
  readonly url: string;
  /** The serving worker's own scrape URL; null while none serves metrics (a scrape then answers 503). */
  target: string | null;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on loopback by reading the serving worker's own endpoint. Each worker `skein dev` starts
 * exports on a free port of its own (a reload starts the new worker while the old one still holds its port), so
 * one stable URL can go into a Prometheus configuration for the whole session.
 * @param port port to listen on (0 = a free port).
 * @throws Error (EADDRINUSE) when `port` is taken.
 */
export async function startMetricsProxy(port: number): Promise<MetricsProxy> {
  let target: string | null = null;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (!target) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('No worker serves metrics right now\n');
      return;
    }
    fetch(target, { signal: AbortSignal.timeout(10_000) }).then(
      async (upstream) => {
        const body = await upstream.text();
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain; version=0.0.4' }).end(body);
      },
      (err: unknown) => res.writeHead(502, { 'content-type': 'text/plain' }).end(`The worker's metrics endpoint did not answer: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  return {
    url,
    get target() {
      return target;
    },
    set target(value) {
      target = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
