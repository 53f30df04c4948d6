import { msToNumber } from '@temporalio/common/lib/time.js';

/** A Temporal duration: milliseconds as a number, or a string such as `'3s'`, `'2m'`, `'1 hour'` (ms format). */
export type Duration = number | string;

/**
 * Milliseconds of a Temporal duration, checked.
 * @param what names the caller in the error, e.g. `sleep()`.
 * @throws TypeError naming the value when it is not a finite, non-negative number of ms or a duration string.
 */
export function durationMs(duration: unknown, what: string): number {
  let ms: number | undefined;
  if (typeof duration === 'number') ms = duration;
  else if (typeof duration === 'string') {
    try {
      ms = msToNumber(duration as never);
    } catch {
      ms = undefined;
    }
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
    throw new TypeError(
      `${what}: ${JSON.stringify(duration) ?? String(duration)} is not a duration; use milliseconds (a number ≥ 0) or a string such as "3s", "2m", "1 hour"`,
    );
  }
  return ms;
}
