/**
 * Request limits checked before any engine call (docs/reference/api-contract.md, "Requests"): a non-empty body must be JSON
 * (415), and a parsed body must nest at most {@link MAX_JSON_DEPTH} levels and hold only well-formed Unicode
 * strings (400), so that whatever the API accepts the engine and the worker can encode and decode.
 */
import type Koa from 'koa';
import { ApiError, validationError } from '../errors.js';
import type { ApiState } from '../route.js';

/** Whether `s` is well-formed Unicode (no lone surrogate): ES2024 `String.prototype.isWellFormed`. */
export function wellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Deepest nesting of arrays and objects a request body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 512;

/** C0 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Content encodings the body parser decodes; anything else is answered 415. */
const ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * 415 `UnsupportedMediaTypeError` for a non-empty body whose `Content-Type` is not JSON (`application/json` or
 * `application/*+json`) or whose `Content-Encoding` is not one of identity, gzip, deflate, br. An empty body
 * (`Content-Length: 0` or none) passes whatever its type.
 */
export function requireJsonBody(): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const length = ctx.get('Content-Length');
    const hasBody = ctx.get('Transfer-Encoding') !== '' || (length !== '' && length !== '0');
    if (hasBody) {
      if (!ctx.request.is('application/json', 'application/*+json')) throw new ApiError('UnsupportedMediaTypeError');
      const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
      if (encoding !== '' && !ENCODINGS.has(encoding)) {
        throw new ApiError('UnsupportedMediaTypeError', {
          message: `Unsupported Content-Encoding "${encoding.slice(0, 50)}"; use identity, gzip, deflate or br`,
        });
      }
    }
    await next();
  };
}

/**
 * The first problem of a parsed JSON value, walked iteratively (no recursion, so any depth is safe to check):
 * nesting deeper than `maxDepth`, or a string (value or key) that is not well-formed Unicode (a lone surrogate).
 * @returns an issue `{ code, path, message }`, or undefined when the value is within the limits.
 */
export function jsonLimitIssue(value: unknown, maxDepth = MAX_JSON_DEPTH): { code: string; path: (string | number)[]; message: string } | undefined {
  const stack: Array<{ v: unknown; depth: number; path: (string | number)[] }> = [{ v: value, depth: 1, path: ['body'] }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return { code: 'invalid_string', path, message: 'String is not well-formed Unicode (lone surrogate)' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth > maxDepth) return { code: 'too_deep', path: path.slice(0, 8), message: `Nesting deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: path.length < 8 ? [...path, i] : path });
    } else {
      for (const [k, child] of Object.entries(v)) {
        if (!wellFormed(k)) return { code: 'invalid_string', path, message: 'Object key is not well-formed Unicode (lone surrogate)' };
        stack.push({ v: child, depth: depth + 1, path: path.length < 8 ? [...path, k] : path });
      }
    }
  }
  return undefined;
}

/**
 * After the body parser: 400 `ValidationError` when the body breaks {@link jsonLimitIssue}'s limits, when a
 * path segment or query value is not well-formed Unicode, or when a query value holds a control character.
 */
export function jsonLimits(maxDepth = MAX_JSON_DEPTH): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const body = (ctx.request as { body?: unknown }).body;
    const issue = jsonLimitIssue(body, maxDepth);
    if (issue)
      throw validationError(issue.code === 'too_deep' ? `Request body nests deeper than ${maxDepth} levels` : 'Request body holds malformed Unicode', [issue]);
    let path: string;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      throw validationError('Request path is not valid UTF-8', [{ code: 'invalid_string', path: ['params'], message: 'Malformed percent-encoding' }]);
    }
    const query = { ...ctx.query };
    const queryIssue = jsonLimitIssue(query, 3);
    if (!wellFormed(path) || queryIssue) {
      throw validationError('Request path or query holds malformed Unicode', [
        { code: 'invalid_string', path: [queryIssue ? 'query' : 'params'], message: 'Not well-formed Unicode' },
      ]);
    }
    // No query parameter of this API takes control characters; the engine's visibility queries choke on them.
    for (const [name, value] of Object.entries(query)) {
      if ([value].flat().some((v) => typeof v === 'string' && CONTROL.test(v))) {
        throw validationError('Query parameter holds a control character', [
          { code: 'invalid_string', path: ['query', name], message: 'Control characters are not allowed' },
        ]);
      }
    }
    await next();
  };
}
