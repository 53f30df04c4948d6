import { defineRoute } from '../route.js';
import { runsQuerySchema, runsResponseSchema } from '../schemas/workflow.js';
import { CATALOG_WORKFLOW_TYPE, RECORDS_TASK_QUEUE } from '@skein/names';
import { engine } from '../temporal/engine.js';
import { runStatus } from '../temporal/status.js';
import { restrictQuery, withQuery } from '../temporal/visibility-query.js';

function quote(v: string): string {
  return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export const runsRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/runs',
    operationId: 'listRuns',
    summary: 'List runs',
    description:
      "Most recent runs first (the `$catalog` registry workflows and Skein's record-keeping executions on the `skein-records` task queue excluded), optionally filtered by workflow type, catalog, the schedule that started them (`scheduleId`) and a visibility `query` (the filter `POST /workflow/batch` takes, so what a batch will touch can be listed first). " +
      '`startedAt` and `completedAt` are ISO 8601 strings here (as the seed system sends them); the status routes answer epoch ms.',
    tag: 'Executions',
    query: runsQuerySchema,
    responses: { 200: { description: 'Runs', schema: runsResponseSchema } },
    async handler({ ctx, deps, query }) {
      const clauses = [`WorkflowType != ${quote(CATALOG_WORKFLOW_TYPE)}`, `TaskQueue != ${quote(RECORDS_TASK_QUEUE)}`];
      if (query.workflowType) clauses.push(`WorkflowType = ${quote(query.workflowType)}`);
      if (query.catalog) clauses.push(`TaskQueue = ${quote(query.catalog)}`);
      if (query.scheduleId) clauses.push(`TemporalScheduledById = ${quote(query.scheduleId)}`);
      const visibilityQuery = restrictQuery(clauses, query.query, 'query');
      const read = async () => {
        const out = [];
        for await (const w of deps.client.workflow.list({ query: visibilityQuery, pageSize: Math.min(query.limit, 1000) })) {
          out.push({
            workflowId: w.workflowId,
            runId: w.runId,
            workflowType: w.type,
            status: runStatus(w.status.name),
            startedAt: w.startTime.toISOString(),
            completedAt: w.closeTime ? w.closeTime.toISOString() : null,
          });
          if (out.length >= query.limit) break;
        }
        return out;
      };
      // A query the engine refuses is the caller's mistake (400 with the engine's reason).
      const runs = query.query === undefined ? await engine(null, read) : await withQuery('query', read);
      ctx.body = { runs, count: runs.length };
    },
  }),
];
