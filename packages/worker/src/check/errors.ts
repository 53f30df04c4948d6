/**
 * Thrown when the worker cannot start: invalid project, no workflows, bundling failure, engine unreachable.
 * `message` is meant to be printed as is (one line, or the full diagnostic list); never a stack trace.
 */
export class WorkerStartupError extends Error {
  override name = 'WorkerStartupError';
  constructor(
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }
}
