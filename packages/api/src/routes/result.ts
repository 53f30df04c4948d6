import { resetRunId, traceDestinationsOf } from '@skein/names/traces';
import { ApiError } from '../errors.js';
import { defineRoute, type Deps } from '../route.js';
import { idParams, runParams } from '../schemas/common.js';
import { resultResponseSchema } from '../schemas/workflow.js';
import { decodeFirst } from '../temporal/payloads.js';
import { describeRun, outcomeOf, resultResponseError, startedEvent, waitCloseEvent } from '../temporal/runs.js';
import { resultStatus } from '../temporal/status.js';

/**
 * The result response (`v: "2"`) of a run: the latest run when `runId` is omitted.
 * @throws ApiError `WorkflowNotFoundError` (404), `WorkflowNotCompletedError` (409) while running.
 */
export async function resultOf(deps: Deps, workflowId: string, runId: string | undefined): Promise<object> {
  const info = await describeRun(deps.client, workflowId, runId);
  if (info.status === 'running') throw new ApiError('WorkflowNotCompletedError', { workflowId });
  const [close, started] = await Promise.all([
    waitCloseEvent(deps.client, workflowId, info.runId, { deadline: Date.now() + 30_000, wait: false }),
    startedEvent(deps.client, workflowId, info.runId),
  ]);
  const isRoot = info.root.workflowId === workflowId && info.root.runId === info.runId;
  const reset = isRoot && resetRunId(info.runId, started.originalExecutionRunId) !== undefined;
  if (!close) throw new ApiError('WorkflowNotCompletedError', { workflowId });
  const outcome = outcomeOf(close);
  return {
    v: '2',
    workflowId,
    runId: info.runId,
    status: resultStatus(outcome.status),
    input: decodeFirst(started.input),
    output: outcome.output,
    trace: { destinations: traceDestinationsOf(info, { ...info.root, reset }) },
    error: resultResponseError(outcome),
  };
}

const errors = ['WorkflowNotFoundError', 'WorkflowNotCompletedError'] as const;

export const resultRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/result',
    operationId: 'getLatestResult',
    summary: 'Result of the latest run',
    tag: 'Executions',
    params: idParams,
    responses: { 200: { description: 'The closed run', schema: resultResponseSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params }) {
      ctx.body = await resultOf(deps, params.id, undefined);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/result',
    operationId: 'getRunResult',
    summary: 'Result of one run',
    tag: 'Executions',
    params: runParams,
    responses: { 200: { description: 'The closed run', schema: resultResponseSchema } },
    errors: [...errors],
    async handler({ ctx, deps, params }) {
      ctx.body = await resultOf(deps, params.id, params.rid);
    },
  }),
];
