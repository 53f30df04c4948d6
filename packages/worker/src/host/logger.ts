import { pino, type Logger, type LoggerOptions } from 'pino';
import { DefaultLogger, Runtime, type LogLevel, type MetricsExporterConfig } from '@temporalio/worker';
import { loadSettings, logLevelSetting } from '@skein/settings';
import { traceFields } from '@skein/telemetry';

/**
 * Log form of an error (server-side logs only, never an API response): `name`, `message`, `stack`, own
 * enumerable fields and the `cause` chain (pino's `errWithCause`), so a log line never reads `"error":{}`.
 * Anything that is not an Error is returned as is.
 */
export function logError(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const out: Record<string, unknown> = { name: value.name, ...pino.stdSerializers.errWithCause(value) };
  // Each level of the chain by the same rule (so every level has its name), at most 10 levels deep.
  if (value.cause !== undefined) out.cause = depth < 9 ? logError(value.cause, depth + 1) : '[truncated]';
  return out;
}

/** pino serializers for the keys errors are logged under (`err`, `error`, `cause`). */
export const logSerializers: LoggerOptions['serializers'] = { err: (v) => logError(v), error: (v) => logError(v), cause: (v) => logError(v) };

/**
 * A pino logger with `name` (the only `name` key: never create a child with another one, use
 * `logger.child({ component })`): JSON lines, errors through `logSerializers`, `trace_id`/`span_id` while an
 * OpenTelemetry span is active; `SKEIN_LOG_LEVEL` sets the level (default `info`).
 * @throws ConfigError when `SKEIN_LOG_LEVEL` is not a level.
 */
export function createLogger(name: string): Logger {
  const level = loadSettings({ SKEIN_LOG_LEVEL: logLevelSetting }).SKEIN_LOG_LEVEL;
  return pino({ name, level, serializers: logSerializers, mixin: traceFields });
}

let installed: { metrics: boolean } | undefined;

/**
 * Installs Temporal's process-wide `Runtime`: the SDK's own logs (the worker, the workflow sandbox, and Temporal
 * Core's native logs, forwarded instead of printed as coloured text) go to `logger` at WARN and above (Core's at
 * `coreLevel`, default WARN), under `temporal`, with every Error in the SDK's metadata serialized by `logError`; with
 * `metrics`, Core also exports its `temporal_*` metrics and whatever is recorded on
 * `Runtime.instance().metricMeter` (Skein's `skein_*`) there.
 * The Runtime can be installed once per process: later calls change nothing.
 * @returns whether metrics are exported (false when the Runtime had been installed before without them, by an
 *   earlier call or by the embedding application).
 */
export function installTemporalRuntime(logger: Logger, metrics?: MetricsExporterConfig, coreLevel: 'WARN' | 'ERROR' = 'WARN'): { metrics: boolean } {
  if (installed) return installed;
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) => {
        const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
        const fn = level === 'error' ? logger.error : level === 'warn' ? logger.warn : logger.debug;
        const meta = entry.meta ? Object.fromEntries(Object.entries(entry.meta).map(([k, v]) => [k, logError(v)])) : undefined;
        fn.call(logger, { temporal: meta }, entry.message);
      }),
      telemetryOptions: { logging: { filter: { core: coreLevel, other: 'ERROR' }, forward: {} }, ...(metrics ? { metrics } : {}) },
    });
    installed = { metrics: metrics !== undefined };
  } catch {
    // Already installed by the embedding application: keep its logger and its telemetry.
    installed = { metrics: false };
  }
  return installed;
}
