/**
 * The two ways a call of `@skein/client` fails. Workflow failures are not errors: `run` and `result` resolve
 * with a `status` other than `completed` (docs/reference/api-contract.md, "Error model").
 */
import type { ValidationErrorResponse } from './types.js';

/** One schema validation issue of a `ValidationError` body (a zod issue), as the OpenAPI document types it. */
export type ApiValidationIssue = ValidationErrorResponse['issues'][number];

/**
 * The API answered with an error status. Carries the API's error body: `type` (e.g.
 * `WorkflowNotFoundError`), `message`, `workflowId`, and `issues` for a `ValidationError`.
 */
export class SkeinApiError extends Error {
  override name = 'SkeinApiError';
  /** HTTP status (400–599). */
  readonly status: number;
  /** The API's error type, or `HttpError` when the body was not a Skein error body (a proxy's page, say). */
  readonly type: string;
  readonly workflowId: string | null;
  readonly issues: ApiValidationIssue[] | undefined;
  /** `X-Request-ID` of the response, to find the server's log line. */
  readonly requestId: string | null;

  constructor(init: { status: number; type: string; message: string; workflowId?: string | null; issues?: ApiValidationIssue[]; requestId?: string | null }) {
    super(init.message);
    this.status = init.status;
    this.type = init.type;
    this.workflowId = init.workflowId ?? null;
    this.issues = init.issues;
    this.requestId = init.requestId ?? null;
  }

  /**
   * Builds the error of a non-2xx response from its already-read body (parsed JSON, text or undefined).
   * Accepts any body: a non-Skein body becomes type `HttpError` with the status line as its message.
   */
  static fromResponse(response: Response, body: unknown): SkeinApiError {
    const requestId = response.headers.get('x-request-id');
    if (
      body &&
      typeof body === 'object' &&
      typeof (body as { error?: unknown }).error === 'string' &&
      typeof (body as { message?: unknown }).message === 'string'
    ) {
      const b = body as { error: string; message: string; workflowId?: string | null; issues?: ApiValidationIssue[] };
      return new SkeinApiError({ status: response.status, type: b.error, message: b.message, workflowId: b.workflowId ?? null, issues: b.issues, requestId });
    }
    const text = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    return new SkeinApiError({ status: response.status, type: 'HttpError', message: text, requestId });
  }
}

/**
 * The API could not be reached: connection refused or reset, DNS failure, or no answer within the request's
 * timeout. `cause` holds the underlying fetch error.
 */
export class SkeinConnectionError extends Error {
  override name = 'SkeinConnectionError';
  /** The URL that was requested. */
  readonly url: string;
  /** True when the request was abandoned after its timeout rather than refused. */
  readonly timedOut: boolean;

  constructor(url: string, cause: unknown, timedOut = false) {
    const reason = timedOut ? 'no answer in time' : describeCause(cause);
    super(`Cannot reach the Skein API at ${new URL(url).origin} (${reason})`, { cause });
    this.url = url;
    this.timedOut = timedOut;
  }
}

function describeCause(cause: unknown): string {
  // fetch wraps the socket error: TypeError('fetch failed', { cause: Error{ code: 'ECONNREFUSED' } }).
  let err = cause as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  let deepest = err;
  for (let i = 0; i < 5 && err && typeof err === 'object'; i++) {
    if (typeof err.code === 'string') return err.code;
    deepest = err;
    err = err.cause as typeof err;
  }
  return typeof deepest?.message === 'string' ? deepest.message : String(cause);
}

/** True for errors worth retrying: the API unreachable, or a 5xx answer (it may be restarting). */
export function isTransient(error: unknown): boolean {
  if (error instanceof SkeinConnectionError) return true;
  return error instanceof SkeinApiError && error.status >= 500 && error.status !== 501;
}
