import { pino, type Logger } from 'pino';

/**
 * The CLI's logger: human-readable (pino-pretty) on a terminal or with `SKEIN_LOG_PRETTY=1`, JSON otherwise
 * (production). `SKEIN_LOG_LEVEL` sets the level (default `info`).
 */
export function cliLogger(name: string): Logger {
  const level = process.env.SKEIN_LOG_LEVEL ?? 'info';
  const pretty = process.env.SKEIN_LOG_PRETTY ? process.env.SKEIN_LOG_PRETTY === '1' : process.stdout.isTTY;
  if (!pretty) return pino({ name, level });
  return pino({
    name,
    level,
    transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' } },
  });
}

/** Prints a one-line fatal error (never a stack trace) and exits with `code`. */
export function fail(message: string, code = 1): never {
  process.stderr.write(`skein: ${message}\n`);
  process.exit(code);
}
