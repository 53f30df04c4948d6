/**
 * The error model of the API (docs/reference/api-contract.md, "Error model"): every error type the API answers, its HTTP status and a
 * default message, kept as data in this one table. Route handlers `throw new ApiError(type, ...)`; the error
 * middleware (`middleware/errors.ts`) is the only place that renders them.
 */

/** The error table: type → HTTP status and the default (sanitized) message. */
export const ERROR_TABLE = {
  ValidationError: { status: 400, message: 'The request is invalid' },
  WorkflowNotFoundError: { status: 404, message: 'Workflow execution not found' },
  UnsupportedWorkflowError: { status: 404, message: 'Workflow is not registered in the catalog' },
  CatalogNotAvailableError: { status: 404, message: 'No worker serves the requested catalog' },
  StepNotFoundError: { status: 404, message: 'No step of that name was scheduled in the run' },
  NotFoundError: { status: 404, message: 'Not found' },
  ScheduleNotFoundError: { status: 404, message: 'Schedule not found' },
  BatchNotFoundError: { status: 404, message: 'No batch operation with that id' },
  QueryNotFoundError: { status: 404, message: 'The workflow registers no query handler of that name' },
  UpdateNotFoundError: { status: 404, message: 'The workflow registers no update handler of that name' },
  UpdateRejectedError: { status: 422, message: "The workflow's validator rejected the update" },
  UnauthorizedError: { status: 401, message: 'A valid bearer token is required' },
  ForbiddenOriginError: { status: 403, message: 'Requests from this origin or host are not allowed' },
  MethodNotAllowedError: { status: 405, message: 'Method not allowed on this path' },
  WorkflowExecutionTimedOutError: { status: 408, message: 'The workflow did not complete within the timeout; it keeps running' },
  WorkflowExecutionAlreadyStartedError: { status: 409, message: 'A workflow execution with this id is already running' },
  WorkflowExecutionAlreadyCompletedError: { status: 409, message: 'The workflow run is already closed' },
  WorkflowNotCompletedError: { status: 409, message: 'The workflow run has not completed yet' },
  StepNotCompletedError: { status: 409, message: 'The step has not completed in this run' },
  WorkflowNotStartedError: { status: 409, message: 'The workflow run waits for its start delay; its handlers answer once it starts' },
  ScheduleAlreadyExistsError: { status: 409, message: 'A schedule with this id already exists' },
  RequestTimeoutError: { status: 408, message: 'The request was not received in time' },
  PayloadTooLargeError: { status: 413, message: 'Request body exceeds 1 MiB' },
  UnsupportedMediaTypeError: { status: 415, message: 'A request body must be JSON (Content-Type: application/json)' },
  TooManyBatchOperationsError: {
    status: 429,
    message: 'The namespace already runs as many batch operations as the engine allows; retry once one has finished',
  },
  RequestHeaderFieldsTooLargeError: { status: 431, message: 'Request headers are too large' },
  InternalError: { status: 500, message: 'Internal server error' },
  WorkflowTaskTimeoutError: { status: 504, message: 'No worker answered within the deadline' },
} as const satisfies Record<string, { status: number; message: string }>;

/** One of the error type names of {@link ERROR_TABLE}. */
export type ErrorType = keyof typeof ERROR_TABLE;

/** Every error type name, in table order (used by the OpenAPI document). */
export const ERROR_TYPES = Object.keys(ERROR_TABLE) as ErrorType[];

/** One schema validation issue as rendered in `ValidationErrorResponse.issues` (a zod issue, sanitized). */
export interface ValidationIssue {
  code: string;
  path: (string | number)[];
  message: string;
  [key: string]: unknown;
}

/**
 * A client-facing error, shaped as Koa's own errors are (`status`, `expose`, `headers`). `message` is shown to the
 * client only when `expose` is true, so it must never carry engine internals; put those in `cause` (logged
 * server-side with the request id, never rendered).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly type: ErrorType;
  /** HTTP status of the response, from the error table. */
  readonly status: number;
  /**
   * Whether `message` may be shown to the client: true for a client error (4xx), false for a server error (5xx),
   * whose response carries the table's generic message instead (as Koa does with `err.expose`).
   */
  readonly expose: boolean;
  readonly workflowId: string | null;
  readonly issues: ValidationIssue[] | undefined;
  /**
   * Response headers the error carries (`Allow`, `Retry-After`, `WWW-Authenticate`, a deprecated route's
   * `Deprecation`/`Sunset`/`Link`); the renderer writes them, whoever threw the error.
   */
  readonly headers: Record<string, string>;

  constructor(
    type: ErrorType,
    options: {
      message?: string;
      workflowId?: string | null;
      issues?: ValidationIssue[];
      cause?: unknown;
      headers?: Record<string, string>;
      /** Show `message` to the client: by default only for a 4xx. Set for a 5xx message written here, never from a cause. */
      expose?: boolean;
    } = {},
  ) {
    super(options.message ?? ERROR_TABLE[type].message, options.cause === undefined ? undefined : { cause: options.cause });
    this.type = type;
    this.status = ERROR_TABLE[type].status;
    this.expose = options.expose ?? this.status < 500;
    this.workflowId = options.workflowId ?? null;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }
}

/** Adds `headers` to what `err` carries (a header already there is replaced) and returns `err`. */
export function withHeaders(err: ApiError, headers: Record<string, string>): ApiError {
  Object.assign(err.headers, headers);
  return err;
}

/** Builds a 400 `ValidationError` carrying the given issues. */
export function validationError(message: string, issues: ValidationIssue[]): ApiError {
  return new ApiError('ValidationError', { message, issues });
}

/** The JSON body of an error response: `ErrorResponse` or `ValidationErrorResponse`. */
export type ErrorBody =
  | { error: ErrorType; message: string; workflowId: string | null }
  | { error: 'ValidationError'; message: string; workflowId: string | null; issues: ValidationIssue[] };

/**
 * Renders an {@link ApiError} as its response body: always `error`, `message` and `workflowId` (the execution the
 * error is tied to; when the error names none, `requestWorkflowId`, the valid id the request's path names, whatever
 * part of the request was refused: docs/api.md, "Errors"; else null), and a `ValidationError`'s `issues`. The message is the error's own when it is exposed
 * (4xx), else the table's generic message for its type (5xx), so a server error never shows what it was built with.
 */
export function errorBody(err: ApiError, requestWorkflowId: string | null = null): ErrorBody {
  if (err.type === 'ValidationError') {
    return { error: 'ValidationError', message: err.message, workflowId: err.workflowId ?? requestWorkflowId, issues: err.issues ?? [] };
  }
  return { error: err.type, message: exposedMessage(err), workflowId: err.workflowId ?? requestWorkflowId };
}

/** The message a client may see of `err`: its own when exposed, else the table's generic message for its type. */
export function exposedMessage(err: ApiError): string {
  return err.expose ? err.message : ERROR_TABLE[err.type].message;
}
