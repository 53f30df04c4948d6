/**
 * `Logger`: the authoring API's logger, with npm's levels (`error`, `warn`, `info`, `http`, `verbose`, `debug`,
 * `silly`). Pure: each entry gives it the place lines go (workflow code: a sink; steps: the worker's logger).
 */
import { isPlainObject } from './merge.js';

/** The levels, most severe first. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] as const;

/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Keys of a log line that the worker writes itself (the logger's own and the run's ids). A field of the same
 * name is kept under `fields` instead (`{ fields: { message: … } }`): never dropped, never overwriting.
 */
export const RESERVED_LOG_KEYS: ReadonlySet<string> = new Set([
  'level',
  'time',
  'msg',
  'message',
  'pid',
  'hostname',
  'name',
  'component',
  'logLevel',
  'fields',
  'trace_id',
  'span_id',
  'workflowId',
  'runId',
  'workflowType',
  'activityId',
  'activityType',
  'attempt',
]);

/** One log call, as it crosses to the worker: level, message, and the caller's fields (reserved names moved). */
export interface LogRecord {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

/** Where a `Logger` sends its records. */
export type LogDispatch = (record: LogRecord) => void;

/** The logger's call shape: one method per level, each `(message, fields?)`, and `createLogger(namespace)`. */
export type LoggerApi = { [L in LogLevel]: (message: string, fields?: Record<string, unknown>) => void } & {
  /** A logger whose lines carry `namespace` (a field of the same name in a call wins). */
  createLogger(namespace: string): LoggerApi;
};

/**
 * The fields of a record: `namespace` first, then the caller's fields; a reserved key (`RESERVED_LOG_KEYS`) goes
 * under `fields`. Anything but a plain object is logged under `fields.value`.
 */
export function logFields(namespace: string | undefined, fields: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = namespace === undefined ? {} : { namespace };
  if (fields === undefined || fields === null) return out;
  if (!isPlainObject(fields)) return { ...out, fields: { value: fields } };
  const moved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (RESERVED_LOG_KEYS.has(key)) moved[key] = value;
    else out[key] = value;
  }
  if (Object.keys(moved).length > 0) out.fields = moved;
  return out;
}

/**
 * A `Logger` sending each call to `dispatch` as a `LogRecord` (`message` as a string). Never throws: a dispatch
 * failure is swallowed, since logging must not fail a workflow or a step.
 */
export function createLoggerWith(dispatch: LogDispatch, namespace?: string): LoggerApi {
  const logger = { createLogger: (ns: string) => createLoggerWith(dispatch, ns) } as LoggerApi;
  for (const level of LOG_LEVELS) {
    logger[level] = (message, fields) => {
      try {
        dispatch({ level, message: String(message), fields: logFields(namespace, fields) });
      } catch {
        /* logging never fails the caller */
      }
    };
  }
  return logger;
}

/** Console method of each level, for lines logged outside a worker (unit tests). */
export const CONSOLE_METHOD: Record<LogLevel, 'error' | 'warn' | 'info' | 'log' | 'debug'> = {
  error: 'error',
  warn: 'warn',
  info: 'info',
  http: 'log',
  verbose: 'log',
  debug: 'debug',
  silly: 'log',
};
