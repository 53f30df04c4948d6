import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { QueryNotRegisteredError, QueryRejectedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { handlerName, workflowIdSchema } from '../schemas/common.js';
import { handlerRequestSchema, handlerValueSchema } from '../schemas/workflow.js';
import { engineError } from '../temporal/engine.js';
import { describeRun } from '../temporal/runs.js';
import {
  isHandlerTimeout,
  isNoPollerRefusal,
  isUnknownUpdate,
  nameList,
  registeredUpdateNames,
  unknownQueryNames,
  updateAccepted,
} from '../temporal/handlers.js';
import { assertStarted, handlerArgs, latestRunningRun, sendHandlerValue } from '../handler-args.js';

const timeout = (kind: 'query' | 'update', workflowId: string, ms: number) =>
  new ApiError('WorkflowTaskTimeoutError', {
    workflowId,
    expose: true,
    message: `No worker answered the ${kind} within ${ms} ms; is a worker polling the workflow's catalog?`,
  });

export const queryRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/query/{query}',
    operationId: 'queryWorkflow',
    summary: 'Query the latest run',
    description:
      "Runs a query handler of the latest run with `payload` as its argument and answers the handler's value itself " +
      'as the JSON body (`3`, `"pong"`, `{"x":1}`; an `undefined` value is an empty body). 404 `QueryNotFoundError` ' +
      'names the queries the workflow registers; 504 `WorkflowTaskTimeoutError` when no worker answers within ' +
      '`SKEIN_HANDLER_TIMEOUT_MS` (10 s).',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema, query: handlerName }),
    body: handlerRequestSchema,
    responses: { 200: { description: "The query handler's value (empty body when it returned undefined)", schema: handlerValueSchema } },
    errors: ['WorkflowNotFoundError', 'QueryNotFoundError', 'WorkflowNotStartedError', 'PayloadTooLargeError', 'WorkflowTaskTimeoutError'],
    async handler({ ctx, deps, params, body }) {
      // A run waiting for its start delay has no workflow state to query yet (the engine either refuses the query or
      // holds it until the delay is over, depending on what the run has received).
      assertStarted(await describeRun(deps.client, params.id), params.id);
      const args = handlerArgs(body.payload);
      const handle = deps.client.workflow.getHandle(params.id);
      const deadline = Date.now() + deps.config.handlerTimeoutMs;
      let value: unknown;
      try {
        value = await deps.client.withAbortSignal(ctx.state.signal, () => deps.client.withDeadline(deadline, () => handle.query(params.query, ...args)));
      } catch (err) {
        if (isHandlerTimeout(err, deadline, ctx.state.signal)) throw timeout('query', params.id, deps.config.handlerTimeoutMs);
        if (err instanceof QueryNotRegisteredError) {
          const names = unknownQueryNames(err.message);
          if (names) {
            throw new ApiError('QueryNotFoundError', {
              workflowId: params.id,
              message: `The workflow registers no query "${params.query}"; its queries: ${nameList(names)}`,
              cause: err,
            });
          }
          throw new ApiError('InternalError', { message: 'The query handler failed', expose: true, workflowId: params.id, cause: err });
        }
        if (err instanceof QueryRejectedError)
          throw new ApiError('InternalError', { message: 'The query was rejected', expose: true, workflowId: params.id, cause: err });
        // The engine refuses a query at once (FAILED_PRECONDITION) when no worker has polled the run's task queue lately.
        if (isNoPollerRefusal(err)) {
          throw new ApiError('WorkflowTaskTimeoutError', {
            workflowId: params.id,
            expose: true,
            message: "No worker can answer the query: none has polled the workflow's catalog lately",
            cause: err,
          });
        }
        throw engineError(err, params.id);
      }
      sendHandlerValue(ctx, value);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/update/{update}',
    operationId: 'updateWorkflow',
    summary: 'Update the latest run',
    description:
      "Runs an update handler of the latest run with `payload` as its argument, waits for it and answers the handler's " +
      'value itself as the JSON body (an `undefined` value is an empty body). 404 `UpdateNotFoundError` names the ' +
      "updates the workflow registers; 422 `UpdateRejectedError` carries the message of the update's validator when " +
      "it rejects `payload` (nothing is recorded in the run); 500 `InternalError` with the handler's message when an " +
      'accepted update fails; 504 `WorkflowTaskTimeoutError` when no worker answers within `SKEIN_HANDLER_TIMEOUT_MS` (10 s).',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema, update: handlerName }),
    body: handlerRequestSchema,
    responses: { 200: { description: "The update handler's value (empty body when it returned undefined)", schema: handlerValueSchema } },
    errors: [
      'WorkflowNotFoundError',
      'UpdateNotFoundError',
      'UpdateRejectedError',
      'WorkflowExecutionAlreadyCompletedError',
      'WorkflowNotStartedError',
      'PayloadTooLargeError',
      'WorkflowTaskTimeoutError',
    ],
    async handler({ ctx, deps, params, body }) {
      const run = await latestRunningRun(ctx, deps, params.id);
      assertStarted(run, params.id);
      const args = handlerArgs(body.payload);
      const deadline = Date.now() + deps.config.handlerTimeoutMs;
      // Our own id, to tell a rejection (no trace in the history) from a failure of the accepted update.
      const updateId = randomUUID();
      let value: unknown;
      try {
        value = await deps.client.withAbortSignal(ctx.state.signal, () =>
          deps.client.withDeadline(deadline, () =>
            deps.client.workflow.getHandle(params.id, run.runId).executeUpdate(params.update, { args, updateId } as never),
          ),
        );
      } catch (err) {
        if (isHandlerTimeout(err, deadline, ctx.state.signal)) throw timeout('update', params.id, deps.config.handlerTimeoutMs);
        if (err instanceof WorkflowUpdateFailedError) {
          const msg = String(err.cause?.message ?? '');
          if (isUnknownUpdate(msg)) {
            const names = await registeredUpdateNames(deps.client, params.id, run.runId, Math.max(deadline, Date.now() + 2_000));
            throw new ApiError('UpdateNotFoundError', {
              workflowId: params.id,
              message: `The workflow registers no update "${params.update}"; its updates: ${nameList(names)}`,
              cause: err,
            });
          }
          const reason = String(err.cause?.message ?? '').slice(0, 1000);
          const accepted = await updateAccepted(deps.client, params.id, run.runId, updateId, Math.max(deadline, Date.now() + 2_000));
          if (accepted === false) {
            throw new ApiError('UpdateRejectedError', {
              workflowId: params.id,
              message: `The update "${params.update}" was rejected by its validator${reason ? `: ${reason}` : ''}`,
              cause: err,
            });
          }
          throw new ApiError('InternalError', {
            message: `The update handler failed${reason ? `: ${reason}` : ''}`,
            expose: true,
            workflowId: params.id,
            cause: err,
          });
        }
        throw engineError(err, params.id);
      }
      sendHandlerValue(ctx, value);
    },
  }),
];
