/**
 * One OpenTelemetry server span per request (HTTP semantic conventions), loaded only when tracing is on. The
 * span continues a valid W3C `traceparent` the caller sent (a malformed one is ignored: a new trace starts),
 * is active while the request is handled (so the Temporal client's spans and the workflow they start join the
 * trace), and its own `traceparent` is returned in the response so that a caller without one learns the trace id.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Tracer } from '@opentelemetry/api';
import type Koa from 'koa';
import { UNKNOWN_ROUTE } from '../metrics/registry.js';
import type { ApiState } from '../route.js';

/**
 * The tracing middleware; the span is named `<METHOD> <route template>` once the route is known (`unknown` for
 * a path no route serves), and ends when the response finishes or the client goes away.
 * @param routeOf the route template of a path the router knows (for requests refused before routing), or undefined.
 */
export function requestTracing(tracer: Tracer, routeOf: (path: string, method: string) => string | undefined): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.req.headers);
    const span = tracer.startSpan(
      ctx.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': ctx.method,
          'url.path': ctx.path,
          'url.scheme': ctx.protocol,
          'network.protocol.version': ctx.req.httpVersion,
          ...(ctx.get('user-agent') ? { 'user_agent.original': ctx.get('user-agent') } : {}),
        },
      },
      parent,
    );
    const active = trace.setSpan(parent, span);
    const headers: Record<string, string> = {};
    propagation.inject(active, headers);
    if (headers.traceparent) ctx.set('traceparent', headers.traceparent);
    const { traceId, spanId } = span.spanContext();
    ctx.state.traceIds = { trace_id: traceId, span_id: spanId };
    const done = () => {
      ctx.res.off('finish', done);
      ctx.res.off('close', done);
      const named = ctx.state.route;
      const route = named ? named.slice(named.indexOf(' ') + 1) : (routeOf(ctx.path, ctx.method) ?? UNKNOWN_ROUTE);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttribute('http.route', route);
      if (ctx.res.headersSent) {
        span.setAttribute('http.response.status_code', ctx.res.statusCode);
        if (ctx.res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      } else {
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'client closed the request' });
      }
      span.end();
    };
    ctx.res.once('finish', done);
    ctx.res.once('close', done);
    await context.with(active, next);
  };
}
