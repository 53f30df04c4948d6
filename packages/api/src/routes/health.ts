import { defineRoute } from '../route.js';
import { healthResponseSchema, readyResponseSchema } from '../schemas/catalog.js';

export const healthRoutes = [
  defineRoute({
    method: 'get',
    path: '/ready',
    operationId: 'ready',
    summary: 'Readiness',
    description: '200 while the periodic engine health check passes, 503 while it fails.',
    tag: 'Service',
    responses: {
      200: { description: 'Ready', schema: readyResponseSchema },
      503: { description: 'The engine connection is unhealthy', schema: readyResponseSchema },
    },
    async handler({ ctx, deps }) {
      ctx.status = deps.health.healthy ? 200 : 503;
      ctx.body = { status: deps.health.healthy ? 'ready' : 'unavailable' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/health',
    operationId: 'health',
    summary: 'Liveness',
    description: '200 while the process runs; makes no engine call.',
    tag: 'Service',
    responses: { 200: { description: 'Alive', schema: healthResponseSchema } },
    async handler({ ctx }) {
      ctx.body = { status: 'ok' };
    },
  }),
];
