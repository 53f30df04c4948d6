import { pino, type Logger, type LoggerOptions } from 'pino';
import { DefaultLogger, Runtime, type LogEntry, type LogLevel, type MetricsExporterConfig } from '@temporalio/worker';
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

/** Most activity attempts whose span ids are kept for Temporal's own log lines about them (oldest dropped first). */
const MAX_ACTIVITY_SPANS = 1_000;
/** Span ids of recent activity attempts, by the attempt's task token (base64). */
const activitySpans = new Map<string, { trace_id: string; span_id: string }>();

/**
 * Records the span ids active while an activity attempt runs (`traceFields()` inside its span), so that the lines
 * Temporal's SDK logs about the attempt after its span ended ("Activity failed") carry them too. Nothing is kept
 * when no span is active (tracing off). Bounded: the oldest of {@link MAX_ACTIVITY_SPANS} attempts is dropped.
 * @param taskToken the attempt's `info.base64TaskToken`.
 * @param ids the span ids (default: the active span's).
 */
export function rememberActivitySpan(taskToken: string, ids = traceFields() as { trace_id?: string; span_id?: string }): void {
  if (!ids.trace_id || !ids.span_id) return;
  if (activitySpans.size >= MAX_ACTIVITY_SPANS) activitySpans.delete(activitySpans.keys().next().value!);
  activitySpans.set(taskToken, { trace_id: ids.trace_id, span_id: ids.span_id });
}

/**
 * The function Temporal's `DefaultLogger` calls for each of the SDK's log entries: one pino line under `temporal`
 * (every Error in the metadata through `logError`), at `error`, `warn` or `debug`. A line about an activity attempt
 * carries that attempt's `trace_id`/`span_id` ({@link rememberActivitySpan}) when no span is active at the call.
 * A run whose workflow type the worker's code does not have (a workflow deleted while runs were open) is one short
 * error line per run, then debug lines, instead of a stack trace at each of the engine's retries.
 */
export function temporalLogLine(logger: Logger): (entry: LogEntry) => void {
  const missingTypeRuns = new Set<string>();
  return (entry) => {
    const missing = missingWorkflowType(entry);
    if (missing) {
      // The engine retries such a run's task every few seconds for as long as it is open: one line per run, not a
      // stack trace each time.
      if (missingTypeRuns.has(missing.runId)) return void logger.debug({ temporal: missing }, 'workflow task failed again: no such workflow');
      if (missingTypeRuns.size >= MAX_MISSING_TYPE_RUNS) missingTypeRuns.delete(missingTypeRuns.values().next().value!);
      missingTypeRuns.add(missing.runId);
      return void logger.error(
        { temporal: missing },
        `a run of workflow "${missing.workflowType}" (run ${missing.runId}) cannot go on: this worker's code has no such workflow (deleted or renamed?). Temporal retries its task until the workflow is served again or the run is terminated`,
      );
    }
    const level = entry.level.toLowerCase() as Lowercase<LogLevel>;
    const fn = level === 'error' ? logger.error : level === 'warn' ? logger.warn : logger.debug;
    const meta = entry.meta ? Object.fromEntries(Object.entries(entry.meta).map(([k, v]) => [k, logError(v)])) : undefined;
    const token: unknown = entry.meta?.taskToken;
    const span = typeof token === 'string' && !(traceFields() as { trace_id?: string }).trace_id ? activitySpans.get(token) : undefined;
    fn.call(logger, span ? { temporal: meta, ...span } : { temporal: meta }, entry.message);
  };
}

/** Most runs remembered as already reported for a workflow type the code lacks (oldest forgotten first). */
const MAX_MISSING_TYPE_RUNS = 1_000;

/** Temporal's activation failure for a workflow type the bundle does not export (its message, as the SDK words it). */
const NO_SUCH_WORKFLOW = /^Failed to initialize workflow of type '(.+)': no such function is exported by the workflow bundle/;

/** The run and workflow type of an SDK entry saying a run's workflow type is not in the bundle, or undefined. */
function missingWorkflowType(entry: LogEntry): { runId: string; workflowType: string; taskQueue?: string } | undefined {
  const meta = entry.meta as { error?: { message?: unknown }; runId?: unknown; taskQueue?: unknown } | undefined;
  const runId = meta?.runId;
  const match = typeof meta?.error?.message === 'string' ? NO_SUCH_WORKFLOW.exec(meta.error.message) : null;
  if (!match || typeof runId !== 'string') return undefined;
  const taskQueue = meta?.taskQueue;
  return { runId, workflowType: match[1]!, ...(typeof taskQueue === 'string' ? { taskQueue } : {}) };
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
      logger: new DefaultLogger('WARN', temporalLogLine(logger)),
      telemetryOptions: { logging: { filter: { core: coreLevel, other: 'ERROR' }, forward: {} }, ...(metrics ? { metrics } : {}) },
    });
    installed = { metrics: metrics !== undefined };
  } catch {
    // Already installed by the embedding application: keep its logger and its telemetry.
    installed = { metrics: false };
  }
  return installed;
}
