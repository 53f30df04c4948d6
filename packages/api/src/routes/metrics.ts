import { defineRoute } from '../route.js';

/**
 * `GET /metrics`: the Prometheus text exposition of the API's metrics (`metrics/registry.ts`). It follows the
 * `Host` and token rules of every other route unless `SKEIN_METRICS_PUBLIC=1` opens it to any scraper.
 * Not listed in the OpenAPI document: it is for monitoring systems, not API clients.
 */
export const metricsRoutes = [
  defineRoute({
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tag: 'Service',
    hidden: true,
    responses: { 200: { description: 'Prometheus text format 0.0.4', contentType: 'text/plain' } },
    async handler({ ctx, deps }) {
      ctx.set('Content-Type', deps.metrics.contentType);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await deps.metrics.render();
    },
  }),
];
