import { traceDestinationsOf } from '@skein/names/traces';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { runParams } from '../schemas/common.js';
import { traceLogResponseSchema } from '../schemas/workflow.js';
import { describeRun, runStart } from '../temporal/runs.js';

export const traceLogRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/trace-log',
    operationId: 'getTraceLog',
    summary: 'Trace log of one run',
    description:
      "The trace tree of the run's root run: from its remote destination (the S3 object, read with the API's AWS " +
      'credentials) when it has one, else from its local trace file. 409 while the run is running; 404 `NotFoundError` ' +
      "when the run has no readable trace (the server log says which destination failed and why). Only the run's own " +
      'trace is read, whatever its memo names: the object in `SKEIN_TRACE_S3_BUCKET` whose key is derived from its root ' +
      "run's workflow type, id and start under `SKEIN_TRACE_S3_PREFIX`, or the file named after its root's ids in " +
      "`SKEIN_TRACE_DIR` or in the trace folders the live workers of its catalog's current build, or of the run's own " +
      'build, advertise (the worker that closed the run wrote it in its own folder). A FIFO, a ' +
      'device, a hard-linked file or one over 50 MiB at that path is refused (404) without waiting on it.',
    tag: 'Executions',
    params: runParams,
    responses: { 200: { description: 'Trace', schema: traceLogResponseSchema } },
    errors: ['WorkflowNotFoundError', 'WorkflowNotCompletedError', 'NotFoundError'],
    async handler({ ctx, deps, params }) {
      const info = await describeRun(deps.client, params.id, params.rid);
      if (info.status === 'running') throw new ApiError('WorkflowNotCompletedError', { workflowId: params.id });
      const read = await deps.traces.read(
        {
          workflowId: info.workflowId,
          runId: info.runId,
          root: info.root,
          taskQueue: info.taskQueue,
          buildId: info.buildId,
          destinations: traceDestinationsOf(info, info.root),
        },
        () => runStart(deps.client, info.root.workflowId, info.root.runId),
        AbortSignal.any([ctx.state.signal, AbortSignal.timeout(10_000)]),
      );
      if ('failures' in read) {
        deps.logger.warn(
          { workflowId: info.workflowId, runId: info.runId, failures: read.failures },
          `trace-log: no readable trace (${read.failures.join('; ')})`,
        );
        throw new ApiError('NotFoundError', { message: 'No readable trace for this run', workflowId: params.id });
      }
      ctx.body = { workflowId: params.id, runId: params.rid, ...read };
    },
  }),
];
