import { defineRoute } from '../route.js';
import { idParams, runParams } from '../schemas/common.js';
import { statusResponseSchema } from '../schemas/workflow.js';
import { describeRun, type RunInfo } from '../temporal/runs.js';

function view(info: RunInfo) {
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    status: info.status,
    startedAt: info.startedAt,
    completedAt: info.completedAt,
    scheduleId: info.scheduleId,
    delayedUntil: info.delayedUntil,
  };
}

export const statusRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/status',
    operationId: 'getLatestStatus',
    summary: 'Status of the latest run',
    tag: 'Executions',
    params: idParams,
    responses: { 200: { description: 'Status', schema: statusResponseSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params }) {
      ctx.body = view(await describeRun(deps.client, params.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/status',
    operationId: 'getRunStatus',
    summary: 'Status of one run',
    tag: 'Executions',
    params: runParams,
    responses: { 200: { description: 'Status', schema: statusResponseSchema } },
    errors: ['WorkflowNotFoundError'],
    async handler({ ctx, deps, params }) {
      ctx.body = view(await describeRun(deps.client, params.id, params.rid));
    },
  }),
];
