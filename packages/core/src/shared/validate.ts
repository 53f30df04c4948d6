import type { Schema } from './definition.js';

/** Outcome of checking a value against an optional schema. */
export type SchemaCheck = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Checks `value` against `schema` (no schema: accepted as is). The message names `what` and every issue
 * with its path, e.g. `Invalid input of step "fetch": city: expected string, received number`.
 */
export function checkSchema(schema: Schema | undefined, value: unknown, what: string): SchemaCheck {
  if (!schema) return { ok: true, value };
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
  return { ok: false, message: `Invalid ${what}: ${issues}` };
}

/** The error type name of schema failures; workflows and activities fail non-retryably with it. */
export const SCHEMA_ERROR_TYPE = 'SkeinValidationError';
