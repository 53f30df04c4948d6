import { pino, type Logger } from 'pino';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

/** A pino logger: JSON by default; `SKEIN_LOG_LEVEL` sets the level (default `info`). */
export function createLogger(name: string): Logger {
  return pino({ name, level: process.env.SKEIN_LOG_LEVEL ?? 'info' });
}

let installed = false;

/**
 * Routes the Temporal SDK's own logs (core, worker, workflow sandbox) to `logger` at WARN and above.
 * Temporal's Runtime can be installed once per process; later calls are no-ops.
 */
export function installTemporalRuntimeLogger(logger: Logger): void {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) => {
        const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
        const fn = level === 'error' ? logger.error : level === 'warn' ? logger.warn : logger.debug;
        fn.call(logger, { temporal: entry.meta }, entry.message);
      }),
    });
  } catch {
    // Already installed by the embedding application: keep its logger.
  }
}
