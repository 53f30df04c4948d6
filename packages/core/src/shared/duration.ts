import ms from 'ms';

/**
 * Milliseconds of a duration string, parsed by `ms` (as Temporal's SDK parses its own duration options); `undefined`
 * when malformed (`ms` answers `undefined` or NaN, or throws for an empty string).
 */
function parseDuration(value: string): number | undefined {
  try {
    return ms(value as ms.StringValue);
  } catch {
    return undefined;
  }
}

/** A Temporal duration: milliseconds as a number, or a string such as `'3s'`, `'2m'`, `'1 hour'` (ms format). */
export type Duration = number | string;

/**
 * Milliseconds of a Temporal duration, checked.
 * @param what names the caller in the error, e.g. `sleep()`.
 * @throws TypeError naming the value when it is not a finite, non-negative number of ms or a duration string.
 */
export function durationMs(duration: unknown, what: string): number {
  let millis: number | undefined;
  if (typeof duration === 'number') millis = duration;
  else if (typeof duration === 'string') millis = parseDuration(duration);
  if (millis === undefined || !Number.isFinite(millis) || millis < 0) {
    throw new TypeError(
      `${what}: ${JSON.stringify(duration) ?? String(duration)} is not a duration; use milliseconds (a number ≥ 0) or a string such as "3s", "2m", "1 hour"`,
    );
  }
  return millis;
}
