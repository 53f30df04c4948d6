import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { ApiError } from '../errors.js';
import type { ApiState } from '../route.js';

/** Paths that never need the token: liveness and readiness probes (orchestrators probe them without credentials). */
const EXEMPT = new Set(['/health', '/ready']);

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether a request may pass the opt-in bearer token (`SKEIN_API_TOKEN`): always when no token is configured, and
 * for `/health`, `/ready` and CORS preflights; otherwise only with `Authorization: Bearer <token>`. The comparison
 * is constant-time (`timingSafeEqual` over SHA-256 digests, so the length leaks nothing either). The one check
 * behind {@link bearerAuth}, and behind the request span's choice to continue a caller's trace.
 */
export function bearerCheck(token: string | null): (ctx: Koa.Context) => boolean {
  if (token === null) return () => true;
  const expected = digest(token);
  return (ctx) => {
    if (EXEMPT.has(ctx.path) || ctx.method === 'OPTIONS') return true;
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(ctx.get('Authorization'));
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

/**
 * Opt-in bearer token (`SKEIN_API_TOKEN`): when `token` is set, every request but `/health`, `/ready` and CORS
 * preflights must send `Authorization: Bearer <token>` ({@link bearerCheck}). With no token configured this is a
 * no-op: by default the API declares no security scheme.
 * @throws ApiError `UnauthorizedError` (401, `WWW-Authenticate: Bearer`).
 */
export function bearerAuth(token: string | null): Koa.Middleware<ApiState> {
  if (token === null) return (_ctx, next) => next();
  const passes = bearerCheck(token);
  return async (ctx, next) => {
    if (!passes(ctx)) throw new ApiError('UnauthorizedError', { headers: { 'WWW-Authenticate': 'Bearer realm="skein"' } });
    await next();
  };
}
