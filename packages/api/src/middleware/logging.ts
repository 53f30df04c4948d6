import type Koa from 'koa';
import type { Logger } from 'pino';
import type { ApiState } from '../route.js';
import { PROBE_ROUTES } from './probes.js';

/**
 * Logs one line per request when its response finishes: request id, method, route, workflow id, run id,
 * `http.status_code` (the name the seed system's logs use; null for a request the client abandoned before the answer) and duration. `ctx.state.log` is a child logger bound to the request id.
 * Probes and scrapes (`PROBE_ROUTES`) log at debug when they succeed and at warn when not (`/ready` answers 503
 * while the engine is away: the engine monitor's own line says why), so they do not drown the requests.
 */
export function requestLogger(logger: Logger): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const started = performance.now();
    ctx.state.log = logger.child({ reqId: ctx.state.requestId });
    const done = () => {
      ctx.res.off('finish', done);
      ctx.res.off('close', done);
      // A request the client abandoned before any answer has no status (not Koa's default 404).
      const status = ctx.res.headersSent ? ctx.res.statusCode : null;
      const line = {
        'http.method': ctx.method,
        'http.route': ctx.state.route ?? null,
        'url.path': ctx.path,
        'http.status_code': status,
        workflowId: ctx.state.workflowId ?? null,
        runId: ctx.state.runId ?? null,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        aborted: !ctx.res.writableFinished,
        ...ctx.state.traceIds,
      };
      if (PROBE_ROUTES.has(ctx.state.route ?? '')) {
        if (status !== null && status < 400) ctx.state.log.debug(line, 'request');
        else ctx.state.log.warn(line, 'probe answered with an error');
      } else if (status === null) ctx.state.log.info(line, 'request abandoned by the client');
      else if (status >= 500) ctx.state.log.error(line, 'request failed');
      else ctx.state.log.info(line, 'request');
    };
    ctx.res.once('finish', done);
    ctx.res.once('close', done);
    await next();
  };
}
