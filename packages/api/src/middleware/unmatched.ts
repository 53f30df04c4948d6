/**
 * Requests no route answers, in the contract's error bodies: 405 `MethodNotAllowedError` with `Allow` for a known
 * path and another method (also for a method the router does not know at all, such as `TRACE`), 404
 * `NotFoundError` for a path no route has. The 405 is @koa/router's own decision (`allowedMethods` with
 * `throw: true`); `OPTIONS` on a known path stays its 200 with `Allow`.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { ApiError } from '../errors.js';
import type { ApiState } from '../route.js';

/** The methods of the routes whose path matched the request, as `Allow` lists them (`HEAD, GET`). */
function allowOf(ctx: Koa.ParameterizedContext<ApiState>): string {
  const matched = (ctx as unknown as RouterContext).matched ?? [];
  return [...new Set(matched.flatMap((layer) => layer.methods))].join(', ');
}

/**
 * The middleware to mount right after `router.routes()`, in this order: the router's `allowedMethods` (throwing a
 * 405 {@link ApiError} that carries `Allow`), then the 404 for a path no route matched. Both errors are rendered
 * by the one error middleware.
 */
export function unmatchedRequests(router: Router<ApiState>): Koa.Middleware<ApiState>[] {
  const methodNotAllowed = (ctx: Koa.ParameterizedContext<ApiState>) => {
    const allow = allowOf(ctx);
    return new ApiError('MethodNotAllowedError', { message: `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, headers: { Allow: allow } });
  };
  // The factories of `allowedMethods` take no argument, so they are bound to each request's context.
  const allowedMethods: Koa.Middleware<ApiState> = (ctx, next) => {
    const mw = router.allowedMethods({ throw: true, methodNotAllowed: () => methodNotAllowed(ctx), notImplemented: () => methodNotAllowed(ctx) });
    const run = mw as unknown as (c: Koa.ParameterizedContext<ApiState>, n: Koa.Next) => Promise<void>;
    return run(ctx, next);
  };
  const notFound: Koa.Middleware<ApiState> = (ctx) => {
    // A path some route has, with another method, is left to `allowedMethods` (which runs after this returns).
    if (((ctx as unknown as RouterContext).matched ?? []).length === 0)
      throw new ApiError('NotFoundError', { message: `No route for ${ctx.method} ${ctx.path}` });
  };
  return [allowedMethods, notFound];
}
