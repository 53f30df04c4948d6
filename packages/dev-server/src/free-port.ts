/**
 * Free loopback ports, and starting a server on ports picked before it binds them: between the pick and the
 * server's own bind another process may take a port (another server, or any outbound connection, which gets an
 * ephemeral port), and the server then fails with "address already in use".
 */
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (free when asked: see `startOnFreePorts`). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Whether a start failed because a port it was given was taken (Go's and Node's bind error texts). */
export function isPortTaken(error: unknown): boolean {
  return /address already in use|EADDRINUSE/i.test(String((error as Error)?.message ?? error));
}

/**
 * Calls `start` (which picks its ports afresh on each call) until it resolves, at most `attempts` times (default 3),
 * while it fails because a port was taken meanwhile (`isPortTaken`).
 * @throws the last error, or at once any error that is not a taken port.
 */
export async function startOnFreePorts<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !isPortTaken(error)) throw error;
    }
  }
}
