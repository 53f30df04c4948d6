/**
 * Typed errors of the authoring API (issue "Typed errors across the activity boundary"). Pure: no Temporal
 * import, so both the Node entry and the workflow-safe entry share this one definition.
 */

/** Prototype marker of errors a step must not be retried for; a registered symbol so copies of core agree. */
const NON_RETRYABLE = Symbol.for('skein.error.nonRetryable');

/**
 * A failure retrying cannot fix. Thrown from a step or evaluator, the activity fails non-retryably (Temporal's
 * `ApplicationFailure` with `nonRetryable: true`): the step is not retried whatever its retry policy says.
 * The failure's type is the thrown class's name, so subclasses (`class CardDeclined extends FatalError {}`)
 * keep their own name across the activity boundary and `hasErrorType(err, CardDeclined)` finds them.
 */
export class FatalError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
Object.defineProperty(FatalError.prototype, NON_RETRYABLE, { value: true });

/**
 * A `FatalError` that stands only for its `cause`: it stops retries like any `FatalError`, while its message and
 * name are the cause's (`new TransparentFatalError(new CardDeclined('no funds'))` fails with `no funds`).
 * @throws FatalError when `cause` is not an Error.
 */
export class TransparentFatalError extends FatalError {
  constructor(cause: Error) {
    if (!(cause instanceof Error)) throw new FatalError('TransparentFatalError argument must be an Error instance');
    super(cause.message, { cause });
    this.name = cause.name;
  }
}

/**
 * Input that is invalid for reasons a schema could not express (a business rule). A `FatalError` (so non-retryable,
 * and `instanceof FatalError`), as in the seed system; its failure type is `ValidationError` (or the subclass's
 * name). Schema failures found by Skein itself keep their own type, `SkeinValidationError`.
 */
export class ValidationError extends FatalError {}

/** True when `error` is (or inherits from) `FatalError` or `ValidationError`: the step must not be retried. */
export function isNonRetryableError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[NON_RETRYABLE] === true;
}

/**
 * The type name an error crosses the activity boundary with: its `name` when the author set one, else its
 * class's name (`class Foo extends Error {}` → `Foo`), else `Error`.
 */
export function errorTypeName(error: Error): string {
  if (error.name && error.name !== 'Error') return error.name;
  const ctor = (error as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name !== '' ? ctor.name : 'Error';
}

/** How deep `hasErrorType` follows `cause` links (Temporal failure chains are a few levels deep). */
const MAX_CAUSE_DEPTH = 20;

/**
 * True when `error` or any error in its `cause` chain is of `errorClass`: an instance of it, or a node whose
 * `name` or Temporal failure `type` is `errorClass.name`. In workflow code a step's error arrives as an
 * `ActivityFailure` whose cause is an `ApplicationFailure` of type `<thrown class name>`, and a child
 * workflow's as a `ChildWorkflowFailure` around that: both match. Matching is by name, so a subclass thrown in
 * a step matches its own class, not its parent class.
 */
export function hasErrorType(error: unknown, errorClass: abstract new (...args: never[]) => Error): boolean {
  const wanted = errorClass.name;
  let node: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof node === 'object' && node !== null; depth++) {
    if (node instanceof errorClass) return true;
    const { name, type } = node as { name?: unknown; type?: unknown };
    if (name === wanted || type === wanted) return true;
    node = (node as { cause?: unknown }).cause;
  }
  return false;
}

/** Failure type of a workflow or step that threw something other than an `Error` (a string, a plain object). */
export const NON_ERROR_THROWN = 'NonErrorThrownError';

/**
 * The message of a `NonErrorThrownError`: `<label> threw a non-Error value: <the value, ≤ 200 characters>; throw an
 * Error instead` (`label` names the thrower: `step "x"`, `workflow "y"`, `jobs[2]`).
 */
export function nonErrorThrownMessage(label: string, value: unknown): string {
  return `${label} threw a non-Error value: ${describeThrownValue(value)}; throw an Error instead`;
}

/** A short (≤ 200 characters) rendering of a thrown non-Error value for failure messages: JSON when possible. */
function describeThrownValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.slice(0, 200);
}
