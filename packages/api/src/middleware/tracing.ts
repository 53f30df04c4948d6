/**
 * One OpenTelemetry server span per request (HTTP semantic conventions), loaded only when tracing is on. A
 * caller's trace context is read from the W3C `traceparent` and `tracestate` headers only (never baggage, never
 * another format, whatever `OTEL_PROPAGATORS` says), and is continued only when the caller may call the API: when
 * no token is configured, or the request carries the right one. Otherwise (a token is configured and the request
 * lacks it) the span starts a new trace and links to the caller's context, so an unauthenticated caller cannot
 * place its spans, or its `tracestate`, into the API's traces and the histories of the workflows it starts.
 * The span is active while the request is handled (so the Temporal client's spans and the workflow they start join
 * the trace), and its own `traceparent` is returned in the response so that a caller without one learns the
 * trace id. A malformed `traceparent` is ignored: a new trace starts. Probes and scrapes (`PROBE_ROUTES`: `/health`,
 * `/ready`, `/metrics`) get no span: at every few seconds they would fill the traces.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, defaultTextMapGetter, defaultTextMapSetter, trace, type Link, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type Koa from 'koa';
import { UNKNOWN_ROUTE } from '../metrics/registry.js';
import type { ApiState } from '../route.js';
import { PROBE_ROUTES } from './probes.js';

/** W3C Trace Context alone: `traceparent` and `tracestate` (at most 32 entries, 512 characters), nothing else. */
const W3C = new W3CTraceContextPropagator();

/**
 * The tracing middleware; the span is named `<METHOD> <route template>` once the route is known (`unknown` for
 * a path no route serves), and ends when the response finishes or the client goes away.
 * @param routeOf the route template of a path the router knows (for requests refused before routing), or undefined.
 * @param mayContinue whether the request may continue its caller's trace (the bearer token check, `bearerCheck`).
 */
export function requestTracing(
  tracer: Tracer,
  routeOf: (path: string, method: string) => string | undefined,
  mayContinue: (ctx: Koa.Context) => boolean,
): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    // HEAD is answered by the GET route.
    if (PROBE_ROUTES.has(`${ctx.method === 'HEAD' ? 'GET' : ctx.method} ${ctx.path}`)) {
      await next();
      return;
    }
    const caller = trace.getSpanContext(W3C.extract(ROOT_CONTEXT, ctx.req.headers, defaultTextMapGetter));
    const continues = caller !== undefined && mayContinue(ctx);
    const parent = continues ? trace.setSpanContext(ROOT_CONTEXT, caller) : ROOT_CONTEXT;
    const links: Link[] = caller && !continues ? [{ context: caller }] : [];
    const span = tracer.startSpan(
      ctx.method,
      {
        kind: SpanKind.SERVER,
        links,
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
    W3C.inject(active, headers, defaultTextMapSetter);
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
