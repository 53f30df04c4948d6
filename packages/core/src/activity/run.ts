import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDefinition } from '../shared/definition.js';
import { SCHEMA_ERROR_TYPE, checkSchema } from '../shared/validate.js';

/**
 * Runs a step or evaluator body with its schemas: input checked before `fn`, output after (evaluators must
 * return `{ value, confidence?, reasoning? }`). A schema failure throws a non-retryable `ApplicationFailure`
 * of type `SkeinValidationError`; errors from `fn` propagate unchanged (Temporal retries them per policy).
 */
export async function runActivity(def: ActivityDefinition, input: unknown): Promise<unknown> {
  const label = `${def.kind} "${def.name}"`;
  const checkedIn = checkSchema(def.inputSchema, input ?? undefined, `input of ${label}`);
  if (!checkedIn.ok) throw ApplicationFailure.nonRetryable(checkedIn.message, SCHEMA_ERROR_TYPE);
  const output = await def.fn(checkedIn.value);
  if (def.kind === 'evaluator' && !isEvaluation(output)) {
    throw ApplicationFailure.nonRetryable(`Invalid output of ${label}: expected { value, confidence?, reasoning? }`, SCHEMA_ERROR_TYPE);
  }
  const checkedOut = checkSchema(def.outputSchema, output, `output of ${label}`);
  if (!checkedOut.ok) throw ApplicationFailure.nonRetryable(checkedOut.message, SCHEMA_ERROR_TYPE);
  return checkedOut.value ?? null;
}

function isEvaluation(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || !('value' in v)) return false;
  const { confidence, reasoning } = v as { confidence?: unknown; reasoning?: unknown };
  return (confidence === undefined || (typeof confidence === 'number' && confidence >= 0 && confidence <= 1)) &&
    (reasoning === undefined || typeof reasoning === 'string');
}
