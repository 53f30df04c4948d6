import { createApiServer, holdYoungGeneration, loadApiConfig } from '@skein/api';
import { explainError } from '../explain.js';
import { cliLogger, fail } from '../logger.js';
import { onShutdownSignal } from './signals.js';

/**
 * `skein api`: serves the HTTP API on `PORT` (3001) until SIGINT/SIGTERM; exits 1 when the engine is lost.
 * A failed start (engine unreachable, port in use) is one line with the fix, exit code 1. Once listening, the
 * process holds its young generation at its starting size (`holdYoungGeneration`).
 */
export async function apiCommand(): Promise<void> {
  const logger = cliLogger('skein-api');
  let listen: string | undefined;
  try {
    const config = loadApiConfig();
    listen = `${config.host}:${config.port}`;
    const server = await createApiServer(config, { logger });
    server.onFatal((reason) => {
      logger.fatal({ reason }, 'engine connection lost; shutting down');
      void server.close().finally(() => process.exit(1));
    });
    try {
      await server.listen();
    } catch (err) {
      await server.close().catch(() => {});
      throw err;
    }
    onShutdownSignal(() => server.close());
    // This process is the API's own: its young generation stays small (see holdYoungGeneration).
    holdYoungGeneration();
  } catch (err) {
    fail(explainError(err, listen ? { listen } : {}));
  }
}
