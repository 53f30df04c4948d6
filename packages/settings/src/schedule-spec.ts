import { createRequire } from 'node:module';
import type { CronExpressionParser as CronParser } from 'cron-parser';
import ms from 'ms';

let cronParser: typeof CronParser | undefined;

/**
 * cron-parser (a CommonJS package, with luxon), required on the first cron expression checked rather than when this
 * module loads: the validator imports these checks for every validation, and most projects declare no cron schedule.
 */
function cronExpressionParser(): typeof CronParser {
  return (cronParser ??= (createRequire(import.meta.url)('cron-parser') as { CronExpressionParser: typeof CronParser }).CronExpressionParser);
}

/** The shortest interval a schedule may run at, ms (`every` and `@every`). */
export const MIN_EVERY_MS = 1_000;

/** Temporal's predefined cron forms (the `@every <duration>` form is handled apart, see {@link parseEvery}). */
export const CRON_PREDEFINED = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly'] as const;

/**
 * Milliseconds of a duration string as the `ms` package reads it (`2s`, `5m`, `1h`, `1 day`); `undefined` when
 * malformed, not finite or negative.
 */
export function durationMs(value: string): number | undefined {
  let out: number | undefined;
  try {
    out = ms(value as ms.StringValue);
  } catch {
    return undefined;
  }
  return typeof out === 'number' && Number.isFinite(out) && out >= 0 ? out : undefined;
}

/**
 * Reads the `@every <duration>` form of a cron entry.
 * @returns null when `cron` is not of that form; else the interval in ms, or `undefined` when the duration is malformed.
 */
export function parseEvery(cron: string): number | undefined | null {
  const m = /^@every\s+(\S.*)$/.exec(cron.trim());
  if (!m) return null;
  return durationMs(m[1]!.trim());
}

/**
 * Why a cron entry is not accepted, or null when it is: the standard five fields (minute, hour, day of month, month,
 * day of week, as `cron-parser` reads them), one of {@link CRON_PREDEFINED}, or `@every <duration>` with a
 * duration of at least {@link MIN_EVERY_MS}.
 */
export function cronProblem(cron: string): string | null {
  const text = cron.trim();
  const every = parseEvery(text);
  if (every !== null) {
    if (every === undefined) return `"${cron}": @every needs a duration such as "30s", "5m" or "1h"`;
    return every < MIN_EVERY_MS ? `"${cron}": @every must be at least 1s` : null;
  }
  if (text.startsWith('@')) {
    return (CRON_PREDEFINED as readonly string[]).includes(text) ? null : `"${cron}": unknown form; use ${CRON_PREDEFINED.join(', ')} or @every <duration>`;
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `"${cron}": a cron expression has 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  try {
    cronExpressionParser().parse(text, { strict: false });
    return null;
  } catch (err) {
    return `"${cron}": ${(err as Error).message}`;
  }
}

/** Whether `timezone` is an IANA time zone name this process knows (as `Intl` does), e.g. `Europe/Paris` or `UTC`. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits cron entries into what Temporal takes: standard and predefined forms stay cron strings, `@every <duration>`
 * entries become intervals (ms). Call with entries {@link cronProblem} accepted.
 */
export function splitCron(cron: readonly string[]): { cronExpressions: string[]; intervalsMs: number[] } {
  const cronExpressions: string[] = [];
  const intervalsMs: number[] = [];
  for (const entry of cron) {
    const every = parseEvery(entry);
    if (typeof every === 'number') intervalsMs.push(every);
    else cronExpressions.push(entry.trim());
  }
  return { cronExpressions, intervalsMs };
}

/** The times a schedule fires, as Skein's API and `workflow({ schedules })` write them. */
export interface ScheduleTimes {
  /** Cron entries ({@link cronProblem} accepts each). */
  cron?: readonly string[] | undefined;
  /** A fixed interval, a duration string of at least 1s. */
  every?: string | undefined;
  /** IANA time zone of the cron entries (default UTC). */
  timezone?: string | undefined;
}

/**
 * The spec fields Temporal's schedule client takes for {@link ScheduleTimes}: `cronExpressions`, `intervals` (`every`
 * and the `@every` entries, in ms) and `timezone`. Call with values checked by {@link scheduleTimesProblems}.
 */
export function temporalScheduleTimes(times: ScheduleTimes): { cronExpressions: string[]; intervals: { every: number }[]; timezone?: string } {
  const { cronExpressions, intervalsMs } = splitCron(times.cron ?? []);
  if (times.every !== undefined) intervalsMs.push(durationMs(times.every)!);
  return { cronExpressions, intervals: intervalsMs.map((every) => ({ every })), ...(times.timezone ? { timezone: times.timezone } : {}) };
}

/**
 * Every problem of a {@link ScheduleTimes}, each with the field it is about (`cron.<i>`, `every`, `timezone`, or
 * `''` for the whole); empty when it is valid.
 */
export function scheduleTimesProblems(times: ScheduleTimes): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (!times.cron?.length && times.every === undefined) out.push({ field: '', message: 'A schedule needs `cron` or `every`' });
  times.cron?.forEach((entry, i) => {
    const problem = cronProblem(entry);
    if (problem) out.push({ field: `cron.${i}`, message: `Invalid cron expression ${problem}` });
  });
  if (times.every !== undefined && (durationMs(times.every) ?? -1) < MIN_EVERY_MS) {
    out.push({ field: 'every', message: `"${times.every}" is not a duration of at least 1s (such as "30s", "5m" or "1h")` });
  }
  if (times.timezone !== undefined && !isTimeZone(times.timezone)) {
    out.push({ field: 'timezone', message: `Unknown time zone "${times.timezone}"; use an IANA name such as "Europe/Paris" or "UTC"` });
  }
  return out;
}

/**
 * Memo key of a schedule that Skein keeps in line with a workflow's declaration (`workflow({ schedules })`):
 * `{ catalog, workflowName, id }`. Schedules without it (created through the API) are never touched by that sync.
 */
export const DECLARED_SCHEDULE_MEMO_KEY = 'skeinDeclared';

/**
 * Memo key, on the runs a schedule starts (its action's memo), of the schedule's times as they were written
 * (`{ cron?, every? }`): the engine keeps cron entries only in a compiled form, so the API reads them back from here.
 */
export const SCHEDULE_TIMES_MEMO_KEY = 'skeinScheduleTimes';

/** The id of the schedule that keeps declaration `id` of `workflowName` on `catalog`: `<catalog>:<workflowName>:<id>`. */
export function declaredScheduleId(catalog: string, workflowName: string, id: string): string {
  return `${catalog}:${workflowName}:${id}`;
}
