import type Koa from 'koa';
import { UNKNOWN_ROUTE, type ApiMetrics } from '../metrics/registry.js';
import type { ApiState } from '../route.js';

/** Status recorded for a request the client abandoned before any answer (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499;

/**
 * Records `http_server_request_duration_seconds` for every request when its response finishes (or the client
 * goes away): labelled with the route template (`ctx.state.route`'s path, else what `routeOf` finds for the path
 * and method, else `unknown`), the method and the status code. Goes early in the chain so that refused requests
 * (403, 401, 415) are measured too.
 * @param routeOf the route template of a path the router knows (for requests refused before routing), or undefined.
 */
export function requestMetrics(metrics: ApiMetrics, routeOf: (path: string, method: string) => string | undefined): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const started = performance.now();
    const done = () => {
      ctx.res.off('finish', done);
      ctx.res.off('close', done);
      const status = ctx.res.headersSent ? ctx.res.statusCode : CLIENT_CLOSED;
      const named = ctx.state.route;
      const route = named ? named.slice(named.indexOf(' ') + 1) : (routeOf(ctx.path, ctx.method) ?? UNKNOWN_ROUTE);
      metrics.httpRequest(route, ctx.method, status, (performance.now() - started) / 1000);
    };
    ctx.res.once('finish', done);
    ctx.res.once('close', done);
    await next();
  };
}
