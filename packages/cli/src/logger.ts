import { traceFields } from '@skein/telemetry';
import { logSerializers } from '@skein/worker';
import { pino, type Logger } from 'pino';
import { loadCliConfig, type CliConfig } from './config.js';

/** The CLI's own settings; a malformed one ends the process with its one-line message (exit 1). */
function cliConfig(): CliConfig {
  try {
    return loadCliConfig();
  } catch (err) {
    fail((err as Error).message);
  }
}

/** Whether logs are pretty: `SKEIN_LOG_PRETTY=1|0` when set, else whether stdout is a terminal. */
export function prettyLogs(): boolean {
  return cliConfig().prettyLogs;
}

/**
 * The CLI's logger: human-readable (pino-pretty) on a terminal or with `SKEIN_LOG_PRETTY=1`, JSON lines
 * otherwise; errors logged under `err`/`error`/`cause` keep name, message, stack and cause (`logSerializers`).
 * `SKEIN_LOG_LEVEL` sets the level (default `info`). Lines logged while an OpenTelemetry span is active carry
 * `trace_id` and `span_id`. Without `name`, it is a base for `component()` children,
 * so every line carries exactly one `name` key.
 */
export function cliLogger(name?: string): Logger {
  const config = cliConfig();
  const base = { ...(name ? { name } : {}), level: config.logLevel, serializers: logSerializers, mixin: traceFields };
  if (!config.prettyLogs) return pino(base);
  return pino({
    ...base,
    transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' } },
  });
}

/**
 * `fields` for a line whose message already says them in words (`skein dev`'s banner, a reload's files): kept in
 * JSON lines for machines, left out of pretty output, where pino-pretty would print them again below the message
 * (a reload after `tsc` listed 113 files).
 */
export function machineFields<T extends object>(fields: T): T | Record<string, never> {
  return prettyLogs() ? {} : fields;
}

/** A child of an unnamed `cliLogger()` base that names its component (`skein`, `api`, `temporal`). */
export function component(base: Logger, name: string): Logger {
  return base.child({ name });
}

/** Prints a one-line fatal error (never a stack trace) and exits with `code`. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`skein: ${message}\n`);
  process.exit(code);
}
