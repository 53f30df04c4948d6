import { describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, RetryState } from '@temporalio/common';
import { FatalError, NON_ERROR_THROWN, ValidationError, errorTypeName, hasErrorType, isNonRetryableError } from '../src/index.js';
import { toActivityFailure } from '../src/internal.js';

class CardDeclined extends FatalError {}
class Unnamed extends Error {}
class Named extends Error {
  override name = 'CustomName';
}

/** How a step's error looks in workflow code: ActivityFailure → ApplicationFailure(type = class name). */
function asSeenInWorkflow(err: Error, child = false): Error {
  const app = toActivityFailure(err, 'step "s"') as ApplicationFailure;
  const activity = new ActivityFailure('Activity task failed', 'W#s', '1', RetryState.NON_RETRYABLE_FAILURE, undefined, app);
  return child ? new ChildWorkflowFailure('default', { workflowId: 'c', runId: 'r' }, 'Child', RetryState.NON_RETRYABLE_FAILURE, activity) : activity;
}

describe('FatalError and ValidationError', () => {
  it('carry their class name, subclasses theirs', () => {
    expect(new FatalError('x').name).toBe('FatalError');
    expect(new ValidationError('x').name).toBe('ValidationError');
    expect(new CardDeclined('x').name).toBe('CardDeclined');
    expect(new FatalError('x', { cause: new Error('root') }).cause).toBeInstanceOf(Error);
  });

  it('are non-retryable; other errors are not', () => {
    expect(isNonRetryableError(new FatalError('x'))).toBe(true);
    expect(isNonRetryableError(new CardDeclined('x'))).toBe(true);
    expect(isNonRetryableError(new ValidationError('x'))).toBe(true);
    expect(isNonRetryableError(new Error('x'))).toBe(false);
    expect(isNonRetryableError('FatalError')).toBe(false);
  });
});

describe('errorTypeName', () => {
  it('is the name the author set, else the class name', () => {
    expect(errorTypeName(new Named('x'))).toBe('CustomName');
    expect(errorTypeName(new Unnamed('x'))).toBe('Unnamed');
    expect(errorTypeName(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeName(new Error('x'))).toBe('Error');
  });
});

describe('toActivityFailure (the activity boundary)', () => {
  it('turns a FatalError into a non-retryable ApplicationFailure of its class name', () => {
    const f = toActivityFailure(new CardDeclined('card 4242 declined'), 'step "pay"') as ApplicationFailure;
    expect(f).toBeInstanceOf(ApplicationFailure);
    expect(f).toMatchObject({ type: 'CardDeclined', message: 'card 4242 declined', nonRetryable: true });
  });

  it('keeps other errors retryable, with the class name and the cause chain', () => {
    const root = new RangeError('root cause');
    const f = toActivityFailure(new Unnamed('upstream 503', { cause: root }), 'step "fetch"') as ApplicationFailure;
    expect(f).toMatchObject({ type: 'Unnamed', message: 'upstream 503', nonRetryable: false });
    expect(f.cause).toBe(root);
  });

  it('names a non-Error throw instead of "[object Object]"', () => {
    const s = toActivityFailure('boom', 'step "s"') as ApplicationFailure;
    expect(s).toMatchObject({ type: NON_ERROR_THROWN, message: 'step "s" threw a non-Error value: "boom"; throw an Error instead' });
    const o = toActivityFailure({ code: 42 }, 'step "s"') as ApplicationFailure;
    expect(o.message).toContain('{"code":42}');
  });

  it('passes Temporal failures through unchanged', () => {
    const own = ApplicationFailure.nonRetryable('already typed', 'Mine');
    expect(toActivityFailure(own, 'step "s"')).toBe(own);
  });
});

describe('hasErrorType', () => {
  it('finds a step error class through ActivityFailure and ChildWorkflowFailure wrappers', () => {
    expect(hasErrorType(asSeenInWorkflow(new CardDeclined('no')), CardDeclined)).toBe(true);
    expect(hasErrorType(asSeenInWorkflow(new CardDeclined('no'), true), CardDeclined)).toBe(true);
    expect(hasErrorType(asSeenInWorkflow(new ValidationError('bad')), ValidationError)).toBe(true);
  });

  it('is false for another class, and matches by name rather than by inheritance across the boundary', () => {
    expect(hasErrorType(asSeenInWorkflow(new CardDeclined('no')), ValidationError)).toBe(false);
    expect(hasErrorType(asSeenInWorkflow(new CardDeclined('no')), FatalError)).toBe(false);
    expect(hasErrorType(asSeenInWorkflow(new Error('plain')), FatalError)).toBe(false);
  });

  it('matches instances and causes in plain JavaScript', () => {
    expect(hasErrorType(new CardDeclined('no'), FatalError)).toBe(true);
    expect(hasErrorType(new Error('outer', { cause: new ValidationError('inner') }), ValidationError)).toBe(true);
  });

  it('is false for non-errors and stops on cyclic causes', () => {
    expect(hasErrorType(undefined, FatalError)).toBe(false);
    expect(hasErrorType('FatalError', FatalError)).toBe(false);
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(hasErrorType(a, FatalError)).toBe(false);
  });
});
