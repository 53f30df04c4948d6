import { defineRoute, type ApiState, type Deps } from '../route.js';
import { executionRefSchema, idParams, runParams } from '../schemas/common.js';
import { resetRequestSchema } from '../schemas/workflow.js';
import { fullHistory, resetPoint, resetTo } from '../temporal/reset.js';
import { describeRun } from '../temporal/runs.js';

/**
 * Resets a run (the latest when `runId` is omitted) to the workflow task completed right after step `stepName`'s
 * last completion; answers the new run id. Closed runs can be reset (that is what reset is for). Records the
 * run it resets in `state.runId`.
 */
async function resetRun(deps: Deps, state: ApiState, workflowId: string, runId: string | undefined, stepName: string, reason: string | undefined) {
  const info = await describeRun(deps.client, workflowId, runId);
  state.runId = info.runId;
  const signal = state.signal;
  const events = await fullHistory(deps.client, workflowId, info.runId, signal);
  const eventId = resetPoint(events, info.workflowType, stepName, workflowId);
  const newRunId = await resetTo(deps.client, workflowId, info.runId, eventId, reason ?? `Reset after step "${stepName}" through the Skein API`);
  return { workflowId, runId: newRunId };
}

const errors = ['WorkflowNotFoundError', 'StepNotFoundError', 'StepNotCompletedError'] as const;
const description =
  'Resets the run to the workflow task completed right after the last completion of step `stepName` and answers ' +
  'the new run id. 404 `StepNotFoundError` if the step was never scheduled, 409 `StepNotCompletedError` if it never completed.';

export const resetRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/runs/{rid}/reset',
    operationId: 'resetRun',
    summary: 'Reset one run after a step',
    description,
    tag: 'Control',
    params: runParams,
    body: resetRequestSchema,
    responses: { 200: { description: 'The new run', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params, body }) {
      ctx.body = await resetRun(deps, ctx.state, params.id, params.rid, body.stepName, body.reason);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/reset',
    operationId: 'resetLatestRun',
    summary: 'Reset the latest run after a step (deprecated)',
    description: `Deprecated: use \`POST /workflow/{id}/runs/{rid}/reset\`. Sunset 2026-07-16. ${description}`,
    tag: 'Control',
    deprecated: { successor: 'reset' },
    params: idParams,
    body: resetRequestSchema,
    responses: { 200: { description: 'The new run', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params, body }) {
      ctx.body = await resetRun(deps, ctx.state, params.id, undefined, body.stepName, body.reason);
    },
  }),
];
