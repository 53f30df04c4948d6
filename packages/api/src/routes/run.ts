import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { runRequestSchema, runResponseSchema } from '../schemas/workflow.js';
import { describeRun, outcomeOf, runResponseFailure, traceDestinations, waitCloseEvent } from '../temporal/runs.js';
import { startExecution } from './start.js';

export const runRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/run',
    operationId: 'runWorkflow',
    summary: 'Run a workflow and wait for its result',
    description:
      'Starts the workflow and waits at most `timeout` ms for that run to close. A failed run is a 200 with ' +
      '`status`, `error`, `errorDetails` and `failure`. When the wait ends first the answer is 408 ' +
      '`WorkflowExecutionTimedOutError` with `workflowId`, and the execution keeps running.',
    tag: 'Executions',
    body: runRequestSchema,
    responses: { 200: { description: 'The run closed', schema: runResponseSchema } },
    errors: [
      'CatalogNotAvailableError',
      'UnsupportedWorkflowError',
      'WorkflowExecutionTimedOutError',
      'WorkflowExecutionAlreadyStartedError',
      'PayloadTooLargeError',
    ],
    async handler({ ctx, deps, body }) {
      const deadline = Date.now() + (body.timeout ?? deps.config.runTimeoutMs);
      const started = await startExecution(deps, body);
      ctx.state.workflowId = started.workflowId;
      ctx.state.runId = started.runId;
      const close = await waitCloseEvent(deps.client, started.workflowId, started.runId, { deadline, signal: ctx.state.signal });
      if (!close) {
        throw new ApiError('WorkflowExecutionTimedOutError', {
          workflowId: started.workflowId,
          message: `Workflow did not complete within ${body.timeout ?? deps.config.runTimeoutMs} ms; it keeps running`,
        });
      }
      const outcome = outcomeOf(close);
      const info = await describeRun(deps.client, started.workflowId, started.runId).catch(() => undefined);
      ctx.body = {
        workflowId: started.workflowId,
        runId: started.runId,
        input: started.input,
        output: outcome.output,
        trace: { destinations: traceDestinations(info?.memo) },
        status: outcome.status,
        ...runResponseFailure(outcome),
      };
    },
  }),
];
