import { defineRoute } from '../route.js';
import { idParams, runParams } from '../schemas/common.js';
import { inputResponseSchema } from '../schemas/workflow.js';
import { chainStart, describeRun, runInput } from '../temporal/runs.js';

export const inputRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/input',
    operationId: 'getOriginalInput',
    summary: 'Original input of an execution',
    description:
      'The input of the first run of the chain (the original input, also after continue-as-new or reset), read ' +
      'from its first history event; `runId` is that first run.',
    tag: 'Executions',
    params: idParams,
    responses: { 200: { description: 'Input', schema: inputResponseSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params }) {
      const latest = await describeRun(deps.client, params.id);
      const first = await chainStart(deps.client, params.id, latest.runId);
      ctx.body = { workflowId: params.id, runId: first.runId, input: first.input };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/input',
    operationId: 'getRunInput',
    summary: 'Input of one run',
    description: 'Read from the first history event of that run.',
    tag: 'Executions',
    params: runParams,
    responses: { 200: { description: 'Input', schema: inputResponseSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params }) {
      ctx.body = { workflowId: params.id, runId: params.rid, input: await runInput(deps.client, params.id, params.rid) };
    },
  }),
];
