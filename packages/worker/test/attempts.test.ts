import type { Info } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure, DefaultFailureConverter, defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import {
  CARRIER_KEY,
  MAX_KEPT,
  MAX_MESSAGE_CHARS,
  carriedAttemptErrors,
  handOn,
  receivedAttemptErrors,
  willRetry,
  withAttempt,
  type AttemptErrors,
} from '../src/traces/attempts.js';

const info = (over: Partial<Info> = {}): Info =>
  ({
    attempt: 2,
    retryPolicy: { initialInterval: 100, backoffCoefficient: 2, maximumInterval: 10_000, maximumAttempts: 5 },
    scheduleToCloseTimeoutMs: 0,
    scheduledTimestampMs: Date.now(),
    ...over,
  }) as Info;

const err = (n: number) => ({ attempt: n, error: { name: 'Error', type: 'Error', message: `attempt ${n}` } });
const none: AttemptErrors = { errors: [], dropped: 0 };
/** A thrown error as history holds it: the SDK's own failure conversion. */
const toFailure = (e: unknown) => new DefaultFailureConverter().errorToFailure(e, defaultPayloadConverter);

describe('attempt errors carried between attempts', () => {
  it('keeps the first 5 and the latest 15 of a 100-attempt retry and counts the rest', () => {
    let carried = none;
    for (let n = 1; n <= 100; n++) carried = withAttempt(carried, err(n));
    expect(carried.errors).toHaveLength(MAX_KEPT);
    expect(carried.errors.map((e) => e.attempt)).toEqual([1, 2, 3, 4, 5, ...Array.from({ length: 15 }, (_, i) => 86 + i)]);
    expect(carried.dropped).toBe(80);
  });

  it('cuts long messages at every level of the chain', () => {
    const long = 'x'.repeat(MAX_MESSAGE_CHARS * 3);
    const carried = withAttempt(none, { attempt: 1, error: { name: 'Error', message: long, cause: { name: 'Error', message: long } } });
    expect(carried.errors[0]!.error.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(carried.errors[0]!.error.cause!.message).toHaveLength(MAX_MESSAGE_CHARS);
    expect(carried.errors[0]!.error.message.endsWith('…')).toBe(true);
  });

  it('reads only its own carrier from heartbeat details', () => {
    expect(receivedAttemptErrors(undefined)).toEqual(none);
    expect(receivedAttemptErrors({ progress: 3 })).toEqual(none);
    expect(receivedAttemptErrors({ [CARRIER_KEY]: { errors: [err(1)], dropped: 0 } })).toEqual({ errors: [err(1)], dropped: 0 });
  });

  it('predicts the engine’s retry decision', () => {
    const boom = ApplicationFailure.create({ message: 'boom', type: 'Error' });
    expect(willRetry(info(), boom)).toBe(true);
    expect(willRetry(info({ attempt: 5 }), boom)).toBe(false);
    expect(willRetry(info(), ApplicationFailure.nonRetryable('no', 'Fatal'))).toBe(false);
    expect(willRetry(info({ retryPolicy: { nonRetryableErrorTypes: ['Error'] } }), boom)).toBe(false);
    expect(willRetry(info(), new CancelledFailure('cancelled'))).toBe(false);
    // Unlimited attempts (the engine's default policy).
    expect(willRetry(info({ attempt: 50, retryPolicy: { initialInterval: 1000 } }), new Error('plain'))).toBe(true);
    // The next attempt would start after the schedule-to-close deadline (100 ms × 2 backoff, 1 s margin).
    expect(willRetry(info({ scheduleToCloseTimeoutMs: 1_100 }), boom)).toBe(false);
    expect(willRetry(info({ scheduleToCloseTimeoutMs: 60_000 }), boom)).toBe(true);
  });

  it('puts the earlier attempts in the failure of an attempt that will be retried, and history reads them back', () => {
    const received = { errors: [err(1)], dropped: 0 };
    const thrown = ApplicationFailure.create({ message: 'attempt 2', type: 'Error', details: ['user detail'] });
    const out = handOn(info(), received, err(2).error, thrown);
    expect(out.heartbeat).toEqual({ [CARRIER_KEY]: { errors: [err(1), err(2)], dropped: 0 } });
    expect(out.error).toBe(thrown);
    expect(thrown.details).toEqual(['user detail', { [CARRIER_KEY]: received }]);
    expect(carriedAttemptErrors(toFailure(out.error))).toEqual(received);
  });

  it('turns a plain error into the failure the SDK would have made of it, with the carrier', () => {
    const plain = new RangeError('out of range', { cause: new Error('why') });
    const out = handOn(info(), { errors: [err(1)], dropped: 0 }, err(2).error, plain);
    const failure = toFailure(out.error);
    expect(failure).toMatchObject({ message: 'out of range', applicationFailureInfo: { type: 'RangeError', nonRetryable: false }, cause: { message: 'why' } });
    expect(failure.stackTrace).toBe(plain.stack);
    expect(carriedAttemptErrors(failure).errors).toEqual([err(1)]);
  });

  it('leaves the failure of the last attempt untouched, so the workflow sees what was thrown', () => {
    const thrown = ApplicationFailure.create({ message: 'attempt 5', type: 'Error' });
    const out = handOn(info({ attempt: 5 }), { errors: [err(1), err(2), err(3), err(4)], dropped: 0 }, err(5).error, thrown);
    expect(out.error).toBe(thrown);
    expect(thrown.details).toBeUndefined();
    expect(carriedAttemptErrors(toFailure(thrown))).toEqual(none);
    // The next attempt would still get them all, if the engine retried after all.
    expect((out.heartbeat as Record<string, AttemptErrors>)[CARRIER_KEY]!.errors).toHaveLength(5);
  });

  it('adds nothing to the failure of a first attempt', () => {
    const plain = new Error('first');
    expect(handOn(info({ attempt: 1 }), none, err(1).error, plain).error).toBe(plain);
  });
});
