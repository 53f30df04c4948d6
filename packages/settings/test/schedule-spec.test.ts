/** The schedule time checks the API, the worker and the validator share. */
import { describe, expect, it } from 'vitest';
import { cronProblem, declaredScheduleId, isTimeZone, scheduleTimesProblems, temporalScheduleTimes } from '../src/schedule-spec.js';

describe('cronProblem', () => {
  it.each(['*/5 * * * *', '0 9 * * MON-FRI', '0 0 1 JAN *', '@daily', '@hourly', '@weekly', '@monthly', '@yearly', '@annually', '@every 1s', '@every 90m'])(
    'accepts %s',
    (cron) => expect(cronProblem(cron)).toBeNull(),
  );

  it.each([
    ['61 * * * *', /got value 61/],
    ['* * * *', /5 fields .* got 4/],
    ['0 0 0 * * *', /5 fields .* got 6/],
    ['@sometimes', /unknown form/],
    ['@every', /unknown form/],
    ['@every soon', /@every needs a duration/],
    ['@every 999ms', /at least 1s/],
    ['x y z a b', /Invalid characters/],
  ])('refuses %s', (cron, message) => expect(cronProblem(cron)).toMatch(message));
});

describe('scheduleTimesProblems', () => {
  it('names each field', () => {
    expect(scheduleTimesProblems({ cron: ['@daily', '99 * * * *'], every: '10ms', timezone: 'Nowhere/Land' }).map((p) => p.field)).toEqual([
      'cron.1',
      'every',
      'timezone',
    ]);
    expect(scheduleTimesProblems({})).toEqual([{ field: '', message: 'A schedule needs `cron` or `every`' }]);
    expect(scheduleTimesProblems({ cron: [] })).toHaveLength(1);
    expect(scheduleTimesProblems({ every: '1s', timezone: 'UTC' })).toEqual([]);
  });

  it('knows IANA zones only', () => {
    expect([isTimeZone('Europe/Paris'), isTimeZone('UTC'), isTimeZone('Mars/Olympus'), isTimeZone('')]).toEqual([true, true, false, false]);
  });
});

describe('temporalScheduleTimes', () => {
  it('keeps cron strings and turns every and @every into intervals in ms', () => {
    expect(temporalScheduleTimes({ cron: [' @daily ', '@every 90s', '0 9 * * *'], every: '2s', timezone: 'Europe/Paris' })).toEqual({
      cronExpressions: ['@daily', '0 9 * * *'],
      intervals: [{ every: 90_000 }, { every: 2_000 }],
      timezone: 'Europe/Paris',
    });
    expect(temporalScheduleTimes({ every: '1h' })).toEqual({ cronExpressions: [], intervals: [{ every: 3_600_000 }] });
  });

  it('names declared schedules by catalog, workflow and id', () => {
    expect(declaredScheduleId('main', 'report', 'nightly')).toBe('main:report:nightly');
  });
});
