/** The API's schedule mapping without an engine: request → schedule options, durations back to strings, input checks. */
import { describe, expect, it } from 'vitest';
import { ScheduleAlreadyRunning, ScheduleNotFoundError } from '@temporalio/client';
import { ApiError } from '../src/errors.js';
import { createScheduleRequestSchema } from '../src/schemas/schedules.js';
import { checkInput } from '../src/temporal/input-check.js';
import { formatDuration, overlapOf, scheduleError, scheduleOptions } from '../src/temporal/schedules.js';

describe('scheduleOptions', () => {
  it('maps a definition to Temporal schedule options', () => {
    const options = scheduleOptions('nightly', {
      workflowName: 'report',
      catalog: 'shop',
      input: { full: true },
      spec: { cron: ['0 2 * * *', '@every 90s'], every: '1h', timezone: 'Europe/Paris', startAt: '2026-01-01T00:00:00Z', jitter: '30s' },
      overlap: 'buffer_one',
      catchupWindow: '5m',
      pauseOnFailure: true,
      paused: true,
      note: 'new',
    });
    expect(options).toEqual({
      scheduleId: 'nightly',
      spec: {
        cronExpressions: ['0 2 * * *'],
        intervals: [{ every: 90_000 }, { every: 3_600_000 }],
        timezone: 'Europe/Paris',
        startAt: new Date('2026-01-01T00:00:00Z'),
        jitter: 30_000,
      },
      action: {
        type: 'startWorkflow',
        workflowType: 'report',
        taskQueue: 'shop',
        workflowId: 'nightly',
        args: [{ full: true }],
        memo: { skeinScheduleTimes: { cron: ['0 2 * * *', '@every 90s'], every: '1h' } },
      },
      policies: { overlap: 'BUFFER_ONE', pauseOnFailure: true, catchupWindow: 300_000 },
      state: { paused: true, note: 'new' },
    });
  });

  it('defaults: overlap skip, not paused, input null', () => {
    const options = scheduleOptions('s', { workflowName: 'w', catalog: 'c', spec: { every: '2s' } });
    expect(options.policies).toEqual({ overlap: 'SKIP', pauseOnFailure: false });
    expect(options.state).toEqual({ paused: false });
    expect(options.action.args).toEqual([null]);
    expect(overlapOf('TERMINATE_OTHER')).toBe('terminate_other');
  });
});

describe('formatDuration', () => {
  it('answers a string that reads back to the same milliseconds', () => {
    expect([formatDuration(2_000), formatDuration(3_600_000), formatDuration(31_536_000_000), formatDuration(90_000), formatDuration(1_500)]).toEqual([
      '2s',
      '1h',
      '365d',
      '90s',
      '1500ms',
    ]);
  });
});

describe('createScheduleRequestSchema', () => {
  const base = { workflowName: 'w', spec: { every: '1h' } };
  const paths = (body: unknown) => {
    const r = createScheduleRequestSchema.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };

  it('names the field of each problem', () => {
    expect(paths({ ...base, spec: { cron: ['@daily', '0 0 31 2 * *'] } })).toEqual(['spec.cron.1']);
    expect(paths({ ...base, spec: { every: '0.5s' } })).toEqual(['spec.every']);
    expect(paths({ ...base, spec: { every: '1h', timezone: 'Moon/Base' } })).toEqual(['spec.timezone']);
    expect(paths({ ...base, spec: { every: '1h', startAt: '2026-02-01T00:00:00Z', endAt: '2026-01-01T00:00:00Z' } })).toEqual(['spec.endAt']);
    expect(paths({ ...base, catchupWindow: 'soon' })).toEqual(['catchupWindow']);
    expect(paths({ ...base, scheduleId: '$x' })).toEqual(['scheduleId']);
    expect(paths(base)).toEqual([]);
  });
});

describe('checkInput', () => {
  const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

  it('passes a matching input and any input without a schema', () => {
    expect(() => checkInput(schema, { name: 'a' }, ['body', 'input'])).not.toThrow();
    expect(() => checkInput(null, 42, ['body', 'input'])).not.toThrow();
  });

  it('refuses a mismatch with a ValidationError naming the failing part', () => {
    let err: unknown;
    try {
      checkInput(schema, { name: 3 }, ['body', 'input']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).type).toBe('ValidationError');
    expect((err as ApiError).issues?.map((i) => i.path)).toEqual([['body', 'input', 'name']]);
    expect(() => checkInput(schema, undefined, ['body', 'input'])).toThrow(/input schema/);
  });
});

describe('scheduleError', () => {
  it('maps the engine schedule errors to the API error table', () => {
    expect(scheduleError(new ScheduleNotFoundError('gone', 'x'), 'x').type).toBe('ScheduleNotFoundError');
    expect(scheduleError(new ScheduleAlreadyRunning('taken', 'x'), 'x')).toMatchObject({ type: 'ScheduleAlreadyExistsError', status: 409 });
    expect(scheduleError(new Error('boom'), 'x').type).toBe('InternalError');
  });
});
