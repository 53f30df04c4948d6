import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { withHeaders } from '../errors.js';
import { deprecationHeaders, type ApiState, type RouteDef } from '../route.js';
import { toApiError } from './errors.js';

/** A router layer (one method and path of one route), as `Router.match` returns it. */
type Layer = Router<ApiState>['stack'][number];

/**
 * What a request targets, resolved from its method and path before anything can refuse it (the Host and Origin
 * allow-list, the token, the content type, the body parser, the route's own validation), so that every answer of
 * that request says it (docs/api.md, "Errors"):
 * - `ctx.state.pathWorkflowId` (and `workflowId`, for the log): the workflow id the path names when it is a valid
 *   one by the route's `params` schema (the error renderer puts it in an error's body that names no other), whether
 *   or not the rest of the request is valid;
 * - a deprecated route's `Deprecation`, `Sunset` and `Link` headers on every response, errors included (`Link` names
 *   the run once the handler knew it, `ctx.state.runId`; else the path template's `{rid}`).
 * Runs right inside the error renderer. Never throws of its own.
 * @param routeOfLayer the route each router layer serves (filled as the routes are registered)
 */
export function requestTarget(router: Router<ApiState>, routeOfLayer: ReadonlyMap<Layer, RouteDef>): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const layer = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => routeOfLayer.has(l));
    const route = layer ? routeOfLayer.get(layer) : undefined;
    if (!layer || !route) {
      await next();
      return;
    }
    const id = pathWorkflowId(route, () => layer.params(ctx.path, layer.captures(ctx.path)));
    if (id !== undefined) ctx.state.workflowId = ctx.state.pathWorkflowId = id;
    const deprecated = route.deprecated;
    if (!deprecated) {
      await next();
      return;
    }
    const headers = () => deprecationHeaders(deprecated.successor, ctx.state.workflowId, ctx.state.runId);
    try {
      await next();
    } catch (err) {
      throw withHeaders(toApiError(err), headers());
    }
    ctx.set(headers());
  };
}

/** The `id` path parameter of `route` when its `params` schema accepts it alone (decoded as the router decodes it). */
function pathWorkflowId(route: RouteDef, params: () => Record<string, string>): string | undefined {
  const schema = route.params instanceof z.ZodObject ? (route.params.shape as Record<string, z.ZodType>).id : undefined;
  if (!schema) return undefined;
  let raw: string | undefined;
  try {
    raw = params().id;
  } catch {
    return undefined; // a path the router cannot decode names no execution (the route refuses it with a 400)
  }
  const parsed = schema.safeParse(raw);
  return parsed.success && typeof parsed.data === 'string' ? parsed.data : undefined;
}
