/**
 * `sendHttpRequest` and `sendPostRequestAndAwaitWebhook`: the argument shapes, their up-front validation and the
 * built-in activity's options. Pure: the workflow-safe entry validates here before scheduling the activity, the
 * Node entry before sending the request in-process.
 */
import { z } from 'zod';
import { HTTP_REQUEST_ACTIVITY_TYPE } from '@skein/names';
import { ValidationError } from './errors.js';
import type { ActivityOptions } from './options.js';

/** HTTP methods `sendHttpRequest` sends. */
export type HttpMethod = 'HEAD' | 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Methods that carry a request body (`payload`). */
export const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Which parts of the response `sendHttpRequest` answers with (status is always there). */
export interface ResponseOptions {
  /** Include the response headers, sensitive ones (`authorization`, `*-token`, `*-key`, cookies, …) redacted. Default false. */
  includeHeaders?: boolean;
  /** Include the body: parsed JSON for a JSON content type, text for `text/*`, base64 otherwise. Default false. */
  includeBody?: boolean;
}

/** The arguments of `sendHttpRequest`. */
export interface HttpRequestArgs {
  /** An `http:` or `https:` URL. */
  url: string;
  /** Default `GET`. */
  method?: HttpMethod;
  /** The body, for POST, PUT, PATCH and DELETE: objects are sent as JSON, other values as text. */
  payload?: unknown;
  /**
   * Request headers. `$NAME` in a value is replaced by the worker's environment variable `NAME` when the
   * request is sent (a missing variable fails the request with a `FatalError`), so secrets stay out of history.
   */
  headers?: Record<string, string>;
  responseOptions?: ResponseOptions;
}

/** What `sendHttpRequest` answers: a response serialized to a plain object. */
export interface SerializedFetchResponse {
  /** The final URL (after redirects). */
  url: string;
  status: number;
  statusText: string;
  /** True for a 2xx status. */
  ok: boolean;
  /** With `responseOptions.includeHeaders`: the headers, sensitive ones as `[REDACTED]`. */
  headers?: Record<string, string>;
  /** With `responseOptions.includeBody`: JSON, text, or base64 of the bytes. */
  body?: unknown;
}

/** The arguments of `sendPostRequestAndAwaitWebhook`. */
export interface WebhookRequestArgs {
  url: string;
  /** Sent as `{ workflowId, payload }`. */
  payload?: object;
  headers?: Record<string, string>;
}

const requestSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }),
    method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']),
    payload: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    responseOptions: z.object({ includeHeaders: z.boolean().optional(), includeBody: z.boolean().optional() }).strict().optional(),
  })
  .strict()
  .superRefine((args, ctx) => {
    if (args.payload !== undefined && args.payload !== null && !METHODS_WITH_BODY.has(args.method)) {
      ctx.addIssue({ code: 'custom', path: ['payload'], message: `a ${args.method} request carries no payload` });
    }
  });

/** The arguments as the built-in activity receives them (method defaulted). */
export type CheckedHttpRequest = HttpRequestArgs & { method: HttpMethod };

/**
 * Checks `sendHttpRequest`'s arguments before anything is sent: an http(s) `url`, a known `method`, string header
 * values, known response options, and no `payload` on GET or HEAD.
 * @returns the arguments with `method` defaulted to `GET`.
 * @throws ValidationError (non-retryable) naming each invalid argument, e.g. `Invalid sendHttpRequest arguments: url: must be an http or https URL`.
 */
export function checkHttpRequest(args: HttpRequestArgs): CheckedHttpRequest {
  const candidate = args !== null && typeof args === 'object' ? { ...args, method: args.method ?? 'GET' } : args;
  const result = requestSchema.safeParse(candidate);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
    throw new ValidationError(`Invalid sendHttpRequest arguments: ${issues}`);
  }
  const checked = candidate as CheckedHttpRequest;
  return Object.fromEntries(Object.entries(checked).filter(([, v]) => v !== undefined)) as CheckedHttpRequest;
}

/**
 * Options of the built-in HTTP activity (`HTTP_REQUEST_ACTIVITY_TYPE`), as the seed system sets them: 3 minutes
 * start-to-close, 3 attempts 15 s apart at first, `FatalError` and `ValidationError` never retried.
 */
export const HTTP_REQUEST_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '3m',
  retry: { initialInterval: '15s', maximumAttempts: 3, nonRetryableErrorTypes: ['FatalError', 'ValidationError'] },
};

export { HTTP_REQUEST_ACTIVITY_TYPE };
