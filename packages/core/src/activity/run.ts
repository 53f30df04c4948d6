import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import type { ActivityDefinition } from '../shared/definition.js';
import { NON_ERROR_THROWN, errorTypeName, isNonRetryableError, nonErrorThrownMessage } from '../shared/errors.js';
import { SCHEMA_ERROR_TYPE, checkSchema } from '../shared/validate.js';

/**
 * Runs a step or evaluator body with its schemas: input (any JSON value) checked before `fn`, output after
 * (evaluators must return `{ value, confidence?, reasoning? }`). A schema failure throws a non-retryable
 * `ApplicationFailure` of type `SkeinValidationError`; an error from `fn` becomes an `ApplicationFailure` whose
 * type is the thrown class's name (`toActivityFailure`).
 */
export async function runActivity(def: ActivityDefinition, input: unknown): Promise<unknown> {
  const label = `${def.kind} "${def.name}"`;
  const checkedIn = checkSchema(def.inputSchema, input ?? undefined, `input of ${label}`);
  if (!checkedIn.ok) throw ApplicationFailure.nonRetryable(checkedIn.message, SCHEMA_ERROR_TYPE);
  let output: unknown;
  try {
    output = await def.fn(checkedIn.value);
  } catch (err) {
    throw toActivityFailure(err, label);
  }
  if (def.kind === 'evaluator' && !isEvaluation(output)) {
    throw ApplicationFailure.nonRetryable(`Invalid output of ${label}: expected { value, confidence?, reasoning? }`, SCHEMA_ERROR_TYPE);
  }
  const checkedOut = checkSchema(def.outputSchema, output, `output of ${label}`);
  if (!checkedOut.ok) throw ApplicationFailure.nonRetryable(checkedOut.message, SCHEMA_ERROR_TYPE);
  return checkedOut.value ?? null;
}

/**
 * What an activity throws for an error of its `fn` (issue "Typed errors across the activity boundary"):
 * - an `ApplicationFailure` (or other Temporal failure) passes through unchanged;
 * - an `Error` becomes an `ApplicationFailure` of type `errorTypeName(err)` with the same message, stack and
 *   `cause` chain, non-retryable for `FatalError` / `ValidationError` (and subclasses), retryable otherwise;
 * - anything else thrown (a string, a plain object) becomes a retryable `NonErrorThrownError` naming `label`
 *   and the value, instead of Temporal's generic `Error: [object Object]`.
 */
export function toActivityFailure(err: unknown, label: string): Error {
  if (err instanceof TemporalFailure) return err;
  if (err instanceof Error) {
    const failure = ApplicationFailure.create({
      message: err.message,
      type: errorTypeName(err),
      nonRetryable: isNonRetryableError(err),
      cause: err.cause instanceof Error ? err.cause : undefined,
    });
    failure.stack = err.stack;
    return failure;
  }
  return ApplicationFailure.create({
    message: nonErrorThrownMessage(label, err),
    type: NON_ERROR_THROWN,
  });
}

function isEvaluation(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || !('value' in v)) return false;
  const { confidence, reasoning } = v as { confidence?: unknown; reasoning?: unknown };
  return (
    (confidence === undefined || (typeof confidence === 'number' && confidence >= 0 && confidence <= 1)) &&
    (reasoning === undefined || typeof reasoning === 'string')
  );
}
