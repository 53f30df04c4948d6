import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { bodyParser } from '@koa/bodyparser';
import { withHeaders } from './errors.js';
import { abortSignal } from './middleware/abort.js';
import { bearerAuth } from './middleware/auth.js';
import { jsonLimits, requireJsonBody } from './middleware/body-limits.js';
import { browserGuard } from './middleware/browser.js';
import { errorRenderer, toApiError } from './middleware/errors.js';
import { requestMetrics } from './middleware/metrics.js';
import { requestLogger } from './middleware/logging.js';
import { requestId } from './middleware/request-id.js';
import { unmatchedRequests } from './middleware/unmatched.js';
import { buildOpenApiDocument } from './openapi.js';
import { deprecationHeaders, parseOr400, routerPath, type ApiState, type Deps, type RouteDef } from './route.js';

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
 * Composes the Koa application: request id → request span (when tracing is on) → request metrics → request log → error rendering → Host/Origin allow-list and CORS
 * (403) → bearer token (401, when configured) → JSON content type and encoding (415) → abort signal → JSON body
 * (1 MiB, 413) → depth and Unicode limits (400) → routes → 405 with `Allow` for a known path and another method
 * (the router's `allowedMethods`) → 404. A deprecated route's headers (`Deprecation`, `Sunset`, `Link`) are on
 * its every response: set on success, carried by the error otherwise. `GET /metrics` skips the Host/Origin and token checks when `config.metricsPublic` is set. Each route validates its params, query and body with its zod schemas before the handler runs.
 */
export function createApp(deps: Deps, routes: RouteDef[], options: AppOptions = {}): Koa<ApiState> {
  const app = new Koa<ApiState>();
  app.proxy = false;
  app.silent = true;
  const router = new Router<ApiState>();
  let document: unknown;
  const openApiDocument = () => (document ??= buildOpenApiDocument(routes, undefined, deps.config.apiToken !== null));

  const serve = async (route: RouteDef, ctx: Koa.ParameterizedContext<ApiState>) => {
    const params = parseOr400(route.params, ctx.params, 'params');
    if (params && typeof params === 'object' && 'id' in params && typeof params.id === 'string') ctx.state.workflowId = params.id;
    const query = parseOr400(route.query, { ...ctx.query }, 'query');
    const body = route.body ? parseOr400(route.body, (ctx.request as { body?: unknown }).body ?? undefined, 'body') : undefined;
    const headers = parseOr400(route.headers, ctx.headers, 'headers');
    await route.handler({ ctx, deps, params, query, body, headers, openApiDocument });
  };
  for (const route of routes) {
    const deprecated = route.deprecated;
    router[route.method](routerPath(route.path), async (ctx) => {
      ctx.state.route = `${route.method.toUpperCase()} ${route.path}`;
      if (!deprecated) return serve(route, ctx);
      // `Link` names the run the call targeted, known only once the handler ran (or got as far as it did).
      const headers = () => deprecationHeaders(deprecated.successor, ctx.state.workflowId, ctx.state.runId);
      await serve(route, ctx).catch((err: unknown) => {
        throw withHeaders(toApiError(err), headers());
      });
      ctx.set(headers());
    });
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
  app.on('error', (err) => deps.logger.error({ err }, 'unhandled koa error'));
  return app;
}
