/**
 * The built-in HTTP request activity (`HTTP_REQUEST_ACTIVITY_TYPE`) behind `sendHttpRequest` and
 * `sendPostRequestAndAwaitWebhook`: the worker registers `performHttpRequest` on every catalog, and the Node entry's
 * `sendHttpRequest` calls it in-process. Node only (global `fetch`, `process.env`).
 */
import { FatalError } from '../shared/errors.js';
import { METHODS_WITH_BODY, checkHttpRequest, type HttpRequestArgs, type SerializedFetchResponse } from '../shared/http-request.js';
import { emit } from '../hooks/registry.js';
import type { HttpRequestPayload } from '../hooks/types.js';

/** How long one request may take before it is aborted, ms (the activity's own timeout is 3 minutes). */
export const HTTP_REQUEST_TIMEOUT_MS = 30_000;

/**
 * A URL safe to log: every query value, the fragment and any credentials replaced by `***`
 * (`https://u:p@h/x?token=1#f` → `https://***:***@h/x?token=***#***`). A string that is not a URL is answered as
 * `[invalid URL]`.
 */
export function redactUrl(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return '[invalid URL]';
  }
  url.search = new URLSearchParams([...url.searchParams.keys()].map((k): [string, string] => [k, '***'])).toString();
  if (url.username) url.username = '***';
  if (url.password) url.password = '***';
  if (url.hash) url.hash = '***';
  return url.toString();
}

const SENSITIVE_WORDS = ['authorization', 'token', 'secret', 'password', 'pwd', 'cookie'].map((w) => new RegExp(`(?<![a-z\\d])${w}(?![a-z\\d])`, 'i'));
const SENSITIVE_ENDINGS = [/key(?![a-z\d])/i];
const NOT_SECRET = new Set(['x-csrf-token', 'public-key-pins']);

/**
 * Headers with sensitive values replaced by `[REDACTED]`: a name holding the word `authorization`, `token`,
 * `secret`, `password`, `pwd` or `cookie`, or a word ending in `key` (`x-api-key`, `apikey`), except
 * `x-csrf-token` and `public-key-pins`.
 */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const low = name.toLowerCase();
    const sensitive = !NOT_SECRET.has(low) && [...SENSITIVE_WORDS, ...SENSITIVE_ENDINGS].some((rx) => rx.test(low));
    out[name] = sensitive ? '[REDACTED]' : value;
  }
  return out;
}

/**
 * Header values with each `$NAME` (upper case, digits, underscores) replaced by the environment variable `NAME`.
 * @throws FatalError `Missing environment variable "NAME" while hydrating headers.`
 */
export function hydrateHeaders(headers: Record<string, string> | undefined, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    out[name] = String(value).replace(/\$([A-Z_][A-Z0-9_]*)/g, (_, variable: string) => {
      const v = env[variable];
      if (v === undefined) throw new FatalError(`Missing environment variable "${variable}" while hydrating headers.`);
      return v;
    });
  }
  return out;
}

/** A payload as a request body and the content type it implies (objects: JSON; bytes: octet-stream; else text). */
function bodyOf(payload: unknown): { body: NonNullable<RequestInit['body']>; contentType?: string } {
  if (payload instanceof ArrayBuffer || ArrayBuffer.isView(payload))
    return { body: payload as NonNullable<RequestInit['body']>, contentType: 'application/octet-stream' };
  if (payload instanceof URLSearchParams || payload instanceof Blob || payload instanceof FormData) return { body: payload };
  if (typeof payload === 'object') return { body: JSON.stringify(payload), contentType: 'application/json; charset=UTF-8' };
  // Objects were answered above: what is left is a primitive.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return { body: String(payload), contentType: 'text/plain; charset=UTF-8' };
}

const JSON_TYPE = /^application\/(?:json|[^;\s]+?\+json)(?:\s*;.*)?$/i;

async function bodyOfResponse(response: Response, label: string): Promise<unknown> {
  const type = (response.headers.get('content-type') ?? '').trim();
  if (JSON_TYPE.test(type)) {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Retried, as any other transient failure of the request is: the seed system does not treat it as fatal.
      throw new Error(`${label} answered ${type} with a body that is not valid JSON`);
    }
  }
  if (type.toLowerCase().startsWith('text/')) return response.text();
  return Buffer.from(await response.arrayBuffer()).toString('base64');
}

/**
 * Sends one HTTP request and answers it serialized (`SerializedFetchResponse`): status always, redacted headers
 * and the body when `responseOptions` asks. Emits the `http:request` hook event (`{ method, url, status,
 * durationMs, error? }`, the URL redacted) whether or not a response came.
 * @throws ValidationError for invalid arguments (`checkHttpRequest`).
 * @throws FatalError (not retried) when the request cannot be sent (unreachable host, refused connection, a
 *   missing `$VAR` in a header) or the response is not 2xx; the message names the method and the redacted URL.
 * @throws Error (retried) when the request times out after `HTTP_REQUEST_TIMEOUT_MS` or a JSON body does not parse.
 */
export async function performHttpRequest(args: HttpRequestArgs): Promise<SerializedFetchResponse> {
  const { url, method, payload, headers, responseOptions = {} } = checkHttpRequest(args);
  const label = `${method} ${redactUrl(url)}`;
  const requestHeaders = new Headers(hydrateHeaders(headers));
  const init: RequestInit = { method, headers: requestHeaders, signal: AbortSignal.timeout(HTTP_REQUEST_TIMEOUT_MS) };
  if (METHODS_WITH_BODY.has(method) && payload !== undefined && payload !== null) {
    const { body, contentType } = bodyOf(payload);
    if (contentType && !requestHeaders.has('content-type')) requestHeaders.set('content-type', contentType);
    init.body = body;
  }
  const t0 = performance.now();
  const event = (status: number | null, error?: string): HttpRequestPayload => ({
    method,
    url: redactUrl(url),
    status,
    durationMs: Math.round(performance.now() - t0),
    ...(error === undefined ? {} : { error }),
  });
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    const raw = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    // The cause may quote the URL (fetch refuses one with credentials by quoting it): never its secrets.
    const cause = raw.replaceAll(url, redactUrl(url)).replaceAll(new URL(url).href, redactUrl(url));
    emit('http:request', event(null, cause));
    if ((err as Error).name === 'TimeoutError') throw new Error(`${label} timed out after ${HTTP_REQUEST_TIMEOUT_MS} ms`, { cause: err });
    throw new FatalError(`${label} failed: ${cause}`);
  }
  emit('http:request', event(response.status));
  if (!response.ok) {
    await response.body?.cancel();
    throw new FatalError(`${label} answered ${response.status} ${response.statusText}`.trimEnd());
  }
  const out: SerializedFetchResponse = { url: response.url, status: response.status, statusText: response.statusText, ok: response.ok };
  if (responseOptions.includeHeaders) out.headers = redactHeaders(Object.fromEntries(response.headers));
  if (responseOptions.includeBody) out.body = await bodyOfResponse(response, label);
  else await response.body?.cancel();
  return out;
}
