import { traceDestinationsOf } from '@skein/names/traces';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { runRequestSchema, runResponseSchema, startHeadersSchema } from '../schemas/workflow.js';
import { chainStart, describeRun, runResponseFailure, waitChainEnd } from '../temporal/runs.js';
import { GRPC, grpcCode } from '../temporal/engine.js';
import { startExecution, startWorkflowId, type Started } from '../temporal/start.js';

export const runRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/run',
    operationId: 'runWorkflow',
    summary: 'Run a workflow and wait for its result',
    description:
      'Starts the workflow and waits at most `timeout` ms for it to close, following continue-as-new to the last run ' +
      "of the chain, whose `status`, `output`, failure and `trace` are answered (`runId` is the chain's first run, " +
      'the one a start made, and `input` its input). A failed run is a 200 with ' +
      '`status`, `error`, `errorDetails` and `failure`. When the wait ends first the answer is 408 ' +
      '`WorkflowExecutionTimedOutError` with `workflowId`, and the execution keeps running. `timeout` bounds the ' +
      'start as well: an engine too slow to accept the start within it also answers 408 (the start may still land). ' +
      'The start options are those of `POST /workflow/start`: with `use-existing` or an `Idempotency-Key` the run found ' +
      'is the one waited on (and its own input is answered); a `startDelay` counts against `timeout`.',
    tag: 'Executions',
    body: runRequestSchema,
    headers: startHeadersSchema,
    responses: { 200: { description: 'The run closed', schema: runResponseSchema } },
    errors: [
      'CatalogNotAvailableError',
      'UnsupportedWorkflowError',
      'WorkflowExecutionTimedOutError',
      'WorkflowExecutionAlreadyStartedError',
      'PayloadTooLargeError',
    ],
    async handler({ ctx, deps, body, headers }) {
      const timeoutMs = body.timeout ?? deps.config.runTimeoutMs;
      const deadline = Date.now() + timeoutMs;
      const request = { ...body, idempotencyKey: headers['idempotency-key'] };
      const workflowId = startWorkflowId(deps, request);
      ctx.state.workflowId = workflowId;
      // The start (catalog lookup included) is bounded by the run's timeout too, not only by the engine deadline.
      const startDeadline = Math.min(deadline, Date.now() + deps.config.engineTimeoutMs);
      let started: Started;
      try {
        started = await deps.client.withDeadline(startDeadline, () => startExecution(deps, { ...request, workflowId }));
      } catch (err) {
        if (startDeadline === deadline && grpcCode(err) === GRPC.DEADLINE_EXCEEDED) {
          throw new ApiError('WorkflowExecutionTimedOutError', {
            workflowId,
            message: `The engine did not accept the start within ${timeoutMs} ms; the execution may or may not have started`,
          });
        }
        throw err;
      }
      ctx.state.runId = started.runId;
      // A shutdown whose grace ends first answers as a `timeout` would (the execution keeps running), not with a
      // dropped connection.
      const waiting = AbortSignal.any([ctx.state.signal, deps.graceOver]);
      const end = await waitChainEnd(deps.client, started.workflowId, started.runId, { deadline, signal: waiting }).catch((err: unknown) => {
        if (deps.graceOver.aborted && !ctx.state.signal.aborted) return 'closing' as const;
        throw err;
      });
      if (end === 'closing') {
        throw new ApiError('WorkflowExecutionTimedOutError', {
          workflowId: started.workflowId,
          message: 'The API process is shutting down and stopped waiting; the execution keeps running (read its result from another API process)',
        });
      }
      if (!end) {
        throw new ApiError('WorkflowExecutionTimedOutError', {
          workflowId: started.workflowId,
          message: `Workflow did not complete within ${timeoutMs} ms; it keeps running`,
        });
      }
      const { outcome } = end;
      const info = await describeRun(deps.client, started.workflowId, end.runId).catch(() => undefined);
      // An execution this request found rather than started (maybe in a later run of its chain) answers the run
      // that started it and its input, as the request that started it was answered.
      const first = started.mayExist ? await chainStart(deps.client, started.workflowId, started.runId) : started;
      ctx.body = {
        workflowId: started.workflowId,
        runId: first.runId,
        input: first.input,
        output: outcome.output,
        trace: { destinations: info ? traceDestinationsOf(info, info.root) : {} },
        status: outcome.status,
        ...runResponseFailure(outcome),
      };
    },
  }),
];
