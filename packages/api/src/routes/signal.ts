import { z } from 'zod';
import { defineRoute } from '../route.js';
import { executionRefSchema, handlerName, workflowIdSchema } from '../schemas/common.js';
import { payloadRequestSchema } from '../schemas/workflow.js';
import { engine } from '../temporal/engine.js';
import { handlerArgs, latestRunningRun } from '../handler-args.js';

export const signalRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/signal/{signal}',
    operationId: 'signalWorkflow',
    summary: 'Signal the latest run',
    description:
      'Always targets the latest run (a run id cannot be pinned). The handler receives `payload`, an object: `{}` when the body has none (a handler that reads a field of its argument then sees it missing, rather than failing every workflow task on `undefined`). Answers 202 with the run that received the signal.',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema, signal: handlerName }),
    body: payloadRequestSchema,
    responses: { 202: { description: 'Signal accepted', schema: executionRefSchema } },
    errors: ['WorkflowNotFoundError', 'WorkflowExecutionAlreadyCompletedError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, params, body }) {
      const latest = await latestRunningRun(ctx, deps, params.id);
      // A signal's argument is an object (the contract's `payload`): `{}` when none is sent.
      const args = handlerArgs(body.payload ?? {});
      await engine(params.id, () => deps.client.workflow.getHandle(params.id).signal(params.signal, ...args));
      ctx.status = 202;
      ctx.body = { workflowId: params.id, runId: latest.runId };
    },
  }),
];
