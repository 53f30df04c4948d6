import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';
import { ApiError } from '../errors.js';

/** gRPC status codes the API distinguishes. */
export const GRPC = {
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
  RESOURCE_EXHAUSTED: 8,
  CANCELLED: 1,
} as const;

/**
 * The gRPC status code of an engine error, if it is one: the error itself or the first gRPC error along its
 * `cause` chain (the SDK wraps some in `ServiceError`, the API in `ApiError`; at most 4 levels are followed).
 */
export function grpcCode(err: unknown): number | undefined {
  let current = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (isGrpcServiceError(current)) return current.code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Translates an error thrown by `@temporalio/client` into a client-facing {@link ApiError} (the engine error is kept
 * as `cause` for the server log only): unknown execution → 404 `WorkflowNotFoundError`, id in use → 409
 * `WorkflowExecutionAlreadyStartedError`, a value the engine refuses (`INVALID_ARGUMENT`) → 400 `ValidationError`,
 * anything else → 500 `InternalError`. ApiErrors pass through.
 */
export function engineError(err: unknown, workflowId: string | null = null): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) {
    return new ApiError('WorkflowNotFoundError', { workflowId, cause: err });
  }
  if (err instanceof WorkflowExecutionAlreadyStartedError || grpcCode(err) === GRPC.ALREADY_EXISTS) {
    return new ApiError('WorkflowExecutionAlreadyStartedError', { workflowId, cause: err });
  }
  if (grpcCode(err) === GRPC.INVALID_ARGUMENT) {
    // A value the client sent that the engine refuses (an id or name it does not accept): the client's mistake.
    return new ApiError('ValidationError', {
      message: 'The engine rejected a value of the request as invalid',
      issues: [{ code: 'rejected_by_engine', path: [], message: 'A workflow id, catalog or name is not accepted by the engine' }],
      cause: err,
    });
  }
  return new ApiError('InternalError', { workflowId, cause: err });
}

/**
 * Runs one page of an engine list (`listSchedules`, `listBatchOperations`, …) that continues from a client's
 * `pageToken`. The engine answers a token it cannot read with `UNKNOWN` or `INVALID_ARGUMENT`: that is the caller's
 * mistake, so it becomes a 400 naming `pageToken`; every other failure is rethrown as it came.
 * @throws ApiError `ValidationError` (400) for an unreadable page token; the call's own error otherwise.
 */
export async function withPageToken<T>(pageToken: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const code = grpcCode(err);
    if (pageToken && (code === GRPC.UNKNOWN || code === GRPC.INVALID_ARGUMENT)) {
      throw new ApiError('ValidationError', {
        message: 'Invalid pageToken: pass back a nextPageToken this API answered',
        issues: [{ code: 'invalid_page_token', path: ['query', 'pageToken'], message: 'Not a page token of this list' }],
        cause: err,
      });
    }
    throw err;
  }
}

/** Runs an engine call, translating its errors with {@link engineError}. */
export async function engine<T>(workflowId: string | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw engineError(err, workflowId);
  }
}
