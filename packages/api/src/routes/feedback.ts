import { WEBHOOK_RESUME_SIGNAL } from '@skein/names';
import { z } from 'zod';
import { defineRoute } from '../route.js';
import { executionRefSchema, workflowIdSchema } from '../schemas/common.js';
import { payloadRequestSchema } from '../schemas/workflow.js';
import { engine } from '../temporal/engine.js';
import { handlerArgs, latestRunningRun } from '../handler-args.js';

/**
 * The API half of `sendPostRequestAndAwaitWebhook`: the service the workflow posted to answers here, and the
 * waiting run resumes with the body's `payload`.
 */
export const feedbackRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/feedback',
    operationId: 'sendWorkflowFeedback',
    summary: 'Resume a run waiting for its webhook',
    description:
      'Sends the `resume` signal with `payload` to the latest run of the workflow: a run waiting in `sendPostRequestAndAwaitWebhook` ' +
      'resumes and that call answers `payload`. A run that is not waiting receives the signal and ignores it, as with any signal. ' +
      'Answers 200 with the run that received it.',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema }),
    body: payloadRequestSchema,
    responses: { 200: { description: 'Feedback delivered', schema: executionRefSchema } },
    errors: ['WorkflowNotFoundError', 'WorkflowExecutionAlreadyCompletedError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, params, body }) {
      const latest = await latestRunningRun(ctx, deps, params.id);
      await engine(params.id, () => deps.client.workflow.getHandle(params.id).signal(WEBHOOK_RESUME_SIGNAL, ...handlerArgs(body.payload)));
      ctx.status = 200;
      ctx.body = { workflowId: params.id, runId: latest.runId };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/heartbeat',
    operationId: 'heartbeat',
    summary: 'Heartbeat',
    description:
      'Answers 204 with no body and makes no engine call: a target for `sendHttpRequest` and `sendPostRequestAndAwaitWebhook` in tests, as the seed system offers it.',
    tag: 'Service',
    responses: { 204: { description: 'Alive' } },
    async handler({ ctx }) {
      ctx.status = 204;
    },
  }),
];
