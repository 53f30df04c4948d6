import { readFile } from 'node:fs/promises';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { runParams } from '../schemas/common.js';
import { traceLogResponseSchema } from '../schemas/workflow.js';
import { describeRun, traceDestinations } from '../temporal/runs.js';

/** Largest trace file the API reads (bytes). */
const MAX_TRACE_BYTES = 50 * 1024 * 1024;

export const traceLogRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/{id}/runs/{rid}/trace-log',
    operationId: 'getTraceLog',
    summary: 'Trace log of one run',
    description:
      "The run's trace tree from its local trace file (or its remote destination). 409 while the run is running; " +
      '404 `NotFoundError` when the run has no trace destination or it cannot be read.',
    tag: 'Executions',
    params: runParams,
    responses: { 200: { description: 'Trace', schema: traceLogResponseSchema } },
    errors: ['WorkflowNotFoundError', 'WorkflowNotCompletedError', 'NotFoundError'],
    async handler({ ctx, deps, params }) {
      const info = await describeRun(deps.client, params.id, params.rid);
      if (info.status === 'running') throw new ApiError('WorkflowNotCompletedError', { workflowId: params.id });
      const dest = traceDestinations(info.memo);
      const notFound = (cause?: unknown) =>
        new ApiError('NotFoundError', { message: 'No readable trace for this run', workflowId: params.id, cause });
      if (dest.local) {
        let data: unknown;
        try {
          const text = await readFile(dest.local, 'utf8');
          if (text.length > MAX_TRACE_BYTES) throw new Error('trace file too large');
          data = JSON.parse(text);
        } catch (err) {
          throw notFound(err);
        }
        ctx.body = { workflowId: params.id, runId: params.rid, source: 'local', location: dest.local, data };
        return;
      }
      if (dest.remote) {
        let data: unknown;
        try {
          const res = await fetch(dest.remote, { signal: AbortSignal.any([ctx.state.signal, AbortSignal.timeout(10_000)]) });
          if (!res.ok) throw new Error(`remote trace answered ${res.status}`);
          data = await res.json();
        } catch (err) {
          throw notFound(err);
        }
        ctx.body = { workflowId: params.id, runId: params.rid, source: 'remote', location: dest.remote, data };
        return;
      }
      throw notFound();
    },
  }),
];
