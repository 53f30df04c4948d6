import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { bodyParser } from '@koa/bodyparser';
import { abortSignal } from './middleware/abort.js';
import { bearerAuth } from './middleware/auth.js';
import { jsonLimits, requireJsonBody } from './middleware/body-limits.js';
import { browserGuard } from './middleware/browser.js';
import { errorRenderer } from './middleware/errors.js';
import { requestMetrics } from './middleware/metrics.js';
import { requestLogger } from './middleware/logging.js';
import { requestId } from './middleware/request-id.js';
import { requestTarget } from './middleware/target.js';
import { unmatchedRequests } from './middleware/unmatched.js';
import { buildOpenApiDocument } from './openapi.js';
import { parseOr400, routerPath, type ApiState, type Deps, type RouteDef } from './route.js';

/** Request bodies are capped at 1 MiB (docs/reference/api-contract.md, "Requests"). */
export const BODY_LIMIT = '1mb';

/** Optional parts of {@link createApp}. */
export interface AppOptions {
  /**
   * Makes the tracing middleware (`middleware/tracing.ts`, loaded only when tracing is on) from the route
   * lookup of requests refused before routing; it runs right after the request id.
   */
  tracing?: (routeOf: (path: string, method: string) => string | undefined) => Koa.Middleware<ApiState>;
}

/**
 * Composes the Koa application: request id → request span (when tracing is on) → request metrics → request log → error
 * rendering → what the request targets (`requestTarget`: the path's workflow id, a deprecated route's headers) →
 * Host/Origin allow-list and CORS (403) → bearer token (401, when configured) → JSON content type and encoding (415)
 * → abort signal → JSON body (1 MiB, 413) → depth and Unicode limits (400) → routes → 405 with `Allow` for a known
 * path and another method (the router's `allowedMethods`) → 404. A deprecated route's headers (`Deprecation`,
 * `Sunset`, `Link`) are on its every response, whichever step refused it; a 400's body names the workflow id a
 * request's path names, whichever step refused it. `GET /metrics` skips the Host/Origin and token checks when `config.metricsPublic` is set. Each route validates its params, query and body with its zod schemas before the handler runs.
 */
export function createApp(deps: Deps, routes: RouteDef[], options: AppOptions = {}): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.proxy = false;
  app.silent = true;
  const router = new Router<ApiState>();
  let document: unknown;
  const openApiDocument = () => (document ??= buildOpenApiDocument(routes, undefined, deps.config.apiToken !== null));

  // The route each router layer serves: `requestTarget` resolves a request's route before anything can refuse it.
  const routeOfLayer = new Map<Router<ApiState>['stack'][number], RouteDef>();
  const serve = async (route: RouteDef, ctx: Koa.ParameterizedContext<ApiState>) => {
    const params = parseOr400(route.params, ctx.params, 'params');
    const query = parseOr400(route.query, { ...ctx.query }, 'query');
    const body = route.body ? parseOr400(route.body, (ctx.request as { body?: unknown }).body ?? undefined, 'body') : undefined;
    const headers = parseOr400(route.headers, ctx.headers, 'headers');
    await route.handler({ ctx, deps, params, query, body, headers, openApiDocument });
  };
  for (const route of routes) {
    router[route.method](routerPath(route.path), async (ctx) => {
      ctx.state.route = `${route.method.toUpperCase()} ${route.path}`;
      await serve(route, ctx);
    });
    routeOfLayer.set(router.stack.at(-1)!, route);
  }

  // Router path (`/workflow/:id`) → route template (`/workflow/{id}`), to label requests refused before routing.
  const templates = new Map(routes.map((r) => [routerPath(r.path), r.path]));
  const routeOf = (path: string, method: string) => {
    const layer = router.match(path, method).path[0];
    return typeof layer?.path === 'string' ? templates.get(layer.path) : undefined;
  };
  const publicPaths = new Set(deps.config.metricsPublic ? ['/metrics'] : []);
  const unlessPublic = (mw: Koa.Middleware<ApiState>): Koa.Middleware<ApiState> =>
    publicPaths.size === 0 ? mw : async (ctx, next) => void (await (publicPaths.has(ctx.path) ? next() : mw(ctx, next)));

  app.use(requestId());
  if (options.tracing) app.use(options.tracing(routeOf));
  app.use(requestMetrics(deps.metrics, routeOf));
  app.use(requestLogger(deps.logger));
  app.use(errorRenderer());
  app.use(requestTarget(router, routeOfLayer));
  app.use(
    unlessPublic(
      browserGuard(
        { corsOrigins: deps.config.corsOrigins, allowedHosts: deps.config.allowedHosts, listenHost: deps.config.host },
        {
          methods: routes.map((r) => r.method),
          headers: routes.flatMap((r) => (r.headers instanceof z.ZodObject ? Object.keys(r.headers.shape) : [])),
        },
      ),
    ),
  );
  app.use(unlessPublic(bearerAuth(deps.config.apiToken)));
  app.use(requireJsonBody());
  app.use(abortSignal(deps.shutdown));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, encoding: 'utf-8', extendTypes: { json: ['application/json', 'application/*+json'] } }));
  app.use(jsonLimits());
  app.use(router.routes());
  for (const mw of unmatchedRequests(router)) app.use(mw);
  app.on('error', (err: NodeJS.ErrnoException, ctx?: Koa.ParameterizedContext<ApiState>) => {
    // A client that closes a response it was still reading (an SSE history stream, a long download) ends Koa's pipe
    // of the body early: the client went away, nothing failed here (the stream's own close handler releases what it held).
    if (err?.code === 'ERR_STREAM_PREMATURE_CLOSE' && ctx !== undefined) {
      (ctx.state.log ?? deps.logger).info({ route: ctx.state.route ?? null, workflowId: ctx.state.workflowId ?? null }, 'response closed by the client');
      return;
    }
    deps.logger.error({ err }, 'unhandled koa error');
  });
  return app;
}
