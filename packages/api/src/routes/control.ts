import { assertRunning, defineRoute, type ApiState, type Deps } from '../route.js';
import { executionRefSchema, idParams, runParams } from '../schemas/common.js';
import { terminateRequestSchema } from '../schemas/workflow.js';
import { engine } from '../temporal/engine.js';
import { describeRun } from '../temporal/runs.js';

/**
 * Requests cancellation (stop) of a run: the latest when `runId` is omitted. Records the targeted run in
 * `state.runId` (request log, successor link of the deprecated route).
 * @throws ApiError `WorkflowNotFoundError` (404), `WorkflowExecutionAlreadyCompletedError` (409).
 */
async function stopRun(deps: Deps, state: ApiState, workflowId: string, runId: string | undefined) {
  const info = await describeRun(deps.client, workflowId, runId);
  state.runId = info.runId;
  assertRunning(info.status, workflowId);
  await engine(workflowId, () => deps.client.workflow.getHandle(workflowId, info.runId).cancel());
  return { workflowId, runId: info.runId };
}

/**
 * Terminates a run: the latest when `runId` is omitted. Records the targeted run in `state.runId`.
 * @throws ApiError `WorkflowNotFoundError` (404), `WorkflowExecutionAlreadyCompletedError` (409).
 */
async function terminateRun(deps: Deps, state: ApiState, workflowId: string, runId: string | undefined, reason: string | undefined) {
  const info = await describeRun(deps.client, workflowId, runId);
  state.runId = info.runId;
  assertRunning(info.status, workflowId);
  await engine(workflowId, () => deps.client.workflow.getHandle(workflowId, info.runId).terminate(reason ?? 'Terminated through the Skein API'));
  return { workflowId, runId: info.runId };
}

const errors = ['WorkflowNotFoundError', 'WorkflowExecutionAlreadyCompletedError'] as const;

export const controlRoutes = [
  defineRoute({
    method: 'patch',
    path: '/workflow/{id}/runs/{rid}/stop',
    operationId: 'stopRun',
    summary: 'Stop (cancel) one run',
    tag: 'Control',
    params: runParams,
    responses: { 200: { description: 'Cancellation requested', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params }) {
      ctx.body = await stopRun(deps, ctx.state, params.id, params.rid);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/runs/{rid}/terminate',
    operationId: 'terminateRun',
    summary: 'Terminate one run',
    tag: 'Control',
    params: runParams,
    body: terminateRequestSchema.optional(),
    responses: { 200: { description: 'Terminated', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params, body }) {
      ctx.body = await terminateRun(deps, ctx.state, params.id, params.rid, body?.reason);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/workflow/{id}/stop',
    operationId: 'stopLatestRun',
    summary: 'Stop (cancel) the latest run (deprecated)',
    description: 'Deprecated: use `PATCH /workflow/{id}/runs/{rid}/stop`. Sunset 2026-07-16.',
    tag: 'Control',
    deprecated: { successor: 'stop' },
    params: idParams,
    responses: { 200: { description: 'Cancellation requested', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params }) {
      ctx.body = await stopRun(deps, ctx.state, params.id, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/terminate',
    operationId: 'terminateLatestRun',
    summary: 'Terminate the latest run (deprecated)',
    description: 'Deprecated: use `POST /workflow/{id}/runs/{rid}/terminate`. Sunset 2026-07-16.',
    tag: 'Control',
    deprecated: { successor: 'terminate' },
    params: idParams,
    body: terminateRequestSchema.optional(),
    responses: { 200: { description: 'Terminated', schema: executionRefSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params, body }) {
      ctx.body = await terminateRun(deps, ctx.state, params.id, undefined, body?.reason);
    },
  }),
];
