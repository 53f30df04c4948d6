import { createApiServer, loadApiConfig } from '@skein/api';
import { cliLogger, fail } from '../logger.js';
import { onShutdownSignal } from './signals.js';

/** `skein api`: serves the HTTP API on `PORT` (3001) until SIGINT/SIGTERM; exits 1 when the engine is lost. */
export async function apiCommand(): Promise<void> {
  const logger = cliLogger('skein-api');
  let server;
  try {
    server = await createApiServer(loadApiConfig(), { logger });
  } catch (err) {
    fail((err as Error).message.split('\n')[0] ?? 'API failed to start');
  }
  server.onFatal((reason) => {
    logger.fatal({ reason }, 'engine connection lost; shutting down');
    void server.close().finally(() => process.exit(1));
  });
  const { url } = await server.listen();
  logger.info(`API listening on ${url}`);
  onShutdownSignal(() => server.close());
}
