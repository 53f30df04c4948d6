/**
 * Starting a service on ports picked before it binds them. Between the pick and the service's own bind, another
 * process may take a port (a listener of another test, or an outbound connection on an ephemeral port): the service
 * then exits with "address already in use". That is the machine's race, not the code under test, so the start is
 * made again on other ports.
 */

/** A start that failed because one of its ports was taken meanwhile (Go's and Node's bind error text). */
export function isPortTaken(error: unknown): boolean {
  return /address already in use|EADDRINUSE/i.test(String((error as Error)?.message ?? error));
}

/**
 * Calls `start` (which picks its ports afresh on each call) until it resolves, at most `attempts` times, while it
 * fails with a taken port (`isPortTaken`).
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
