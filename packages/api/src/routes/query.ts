import { z } from 'zod';
import { QueryNotRegisteredError, QueryRejectedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError, validationError } from '../errors.js';
import { defineRoute } from '../route.js';
import { workflowIdSchema } from '../schemas/common.js';
import { handlerName, handlerRequestSchema, handlerResponseSchema } from '../schemas/workflow.js';
import { engineError } from '../temporal/engine.js';
import { jsonSafe } from '../temporal/payloads.js';
import { handlerArgs, latestRunningRun } from './handler-args.js';

function unknownHandler(kind: 'query' | 'update', name: string, cause: unknown) {
  const err = validationError(`The workflow has no ${kind} handler "${name}"`, [
    { code: 'unknown_handler', path: ['params', kind], message: `no ${kind} handler of this name` },
  ]);
  (err as { cause?: unknown }).cause = cause;
  return err;
}

export const queryRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/query/{query}',
    operationId: 'queryWorkflow',
    summary: 'Query the latest run',
    description: 'Runs a query handler of the latest run with `payload` as its argument and answers `{ result }`.',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema, query: handlerName }),
    body: handlerRequestSchema,
    responses: { 200: { description: 'Query result', schema: handlerResponseSchema } },
    errors: ['WorkflowNotFoundError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, params, body }) {
      const args = handlerArgs(body.payload);
      try {
        const result = await deps.client.withAbortSignal(ctx.state.signal, () =>
          deps.client.workflow.getHandle(params.id).query(params.query, ...args),
        );
        ctx.body = { result: jsonSafe(result) };
      } catch (err) {
        if (err instanceof QueryNotRegisteredError) throw unknownHandler('query', params.query, err);
        if (err instanceof QueryRejectedError) throw new ApiError('InternalError', { message: 'The query was rejected', cause: err });
        if (/unknown queryType|QueryNotRegistered/i.test(String((err as Error)?.message))) throw unknownHandler('query', params.query, err);
        throw engineError(err, params.id);
      }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/workflow/{id}/update/{update}',
    operationId: 'updateWorkflow',
    summary: 'Update the latest run',
    description: 'Runs an update handler of the latest run with `payload` as its argument, waits for it and answers `{ result }`.',
    tag: 'Control',
    params: z.object({ id: workflowIdSchema, update: handlerName }),
    body: handlerRequestSchema,
    responses: { 200: { description: 'Update result', schema: handlerResponseSchema } },
    errors: ['WorkflowNotFoundError', 'WorkflowExecutionAlreadyCompletedError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, params, body }) {
      await latestRunningRun(ctx, deps, params.id);
      const args = handlerArgs(body.payload);
      try {
        const result = await deps.client.withAbortSignal(ctx.state.signal, () =>
          deps.client.workflow.getHandle(params.id).executeUpdate(params.update, { args } as never),
        );
        ctx.body = { result: jsonSafe(result) };
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError) {
          const msg = String((err.cause as Error | undefined)?.message ?? '');
          if (/unknown update|not registered|no registered handler|no handler/i.test(msg)) throw unknownHandler('update', params.update, err);
          throw new ApiError('InternalError', { message: 'The update failed', workflowId: params.id, cause: err });
        }
        throw engineError(err, params.id);
      }
    },
  }),
];
