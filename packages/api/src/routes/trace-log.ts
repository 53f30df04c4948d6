import { readFile } from 'node:fs/promises';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { runParams } from '../schemas/common.js';
import { traceLogResponseSchema } from '../schemas/workflow.js';
import { describeRun, traceDestinations } from '../temporal/runs.js';
import { confinedTraceFile, remoteTraceAllowed } from '../temporal/trace-source.js';

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
      '404 `NotFoundError` when the run has no trace destination or it cannot be read. Only files under the trace ' +
      'directory (`SKEIN_TRACE_DIR`) and URLs under `SKEIN_TRACE_REMOTE_URL` are read, whatever the run\'s memo names.',
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
      const localFile = dest.local ? await confinedTraceFile(deps.config.traceDir, dest.local) : undefined;
      if (dest.local && localFile) {
        let data: unknown;
        try {
          const text = await readFile(localFile, 'utf8');
          if (text.length > MAX_TRACE_BYTES) throw new Error('trace file too large');
          data = JSON.parse(text);
        } catch (err) {
          throw notFound(err);
        }
        ctx.body = { workflowId: params.id, runId: params.rid, source: 'local', location: dest.local, data };
        return;
      }
      if (dest.remote && remoteTraceAllowed(deps.config.traceRemoteUrl, dest.remote)) {
        let data: unknown;
        try {
          const res = await fetch(dest.remote, { redirect: 'error', signal: AbortSignal.any([ctx.state.signal, AbortSignal.timeout(10_000)]) });
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
