import { randomUUID } from 'node:crypto';
import { defineRoute, type Deps } from '../route.js';
import { executionRefSchema } from '../schemas/common.js';
import { startRequestSchema } from '../schemas/workflow.js';
import { engine } from '../temporal/engine.js';

/** A validated start (or run) request. */
export interface StartInput {
  workflowName: string;
  input?: unknown;
  workflowId?: string | undefined;
  catalog?: string | undefined;
  taskQueue?: string | undefined;
}

/**
 * Resolves the catalog (`catalog` wins over the deprecated `taskQueue`, then the default), checks the workflow
 * is served there (name or alias, from the `$catalog` memo) and starts its CANONICAL name with `[input ?? null]`.
 * Nothing is started when the check fails.
 * @throws ApiError `CatalogNotAvailableError` / `UnsupportedWorkflowError` (404),
 *   `WorkflowExecutionAlreadyStartedError` (409), `InternalError` (500).
 */
export async function startExecution(deps: Deps, req: StartInput): Promise<{ workflowId: string; runId: string; input: unknown }> {
  const catalog = req.catalog ?? req.taskQueue ?? deps.config.defaultCatalog;
  const entry = await deps.catalogs.resolve(catalog, req.workflowName);
  const workflowId = req.workflowId ?? randomUUID();
  const input = req.input === undefined ? null : req.input;
  const handle = await engine(workflowId, () => deps.client.workflow.start(entry.name, { taskQueue: catalog, workflowId, args: [input] }));
  return { workflowId, runId: handle.firstExecutionRunId, input };
}

export const startRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/start',
    operationId: 'startWorkflow',
    summary: 'Start a workflow execution',
    description: 'Starts `workflowName` (a name or alias) on the catalog and answers at once with its ids.',
    tag: 'Executions',
    body: startRequestSchema,
    responses: { 200: { description: 'Started', schema: executionRefSchema } },
    errors: ['CatalogNotAvailableError', 'UnsupportedWorkflowError', 'WorkflowExecutionAlreadyStartedError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, body }) {
      const started = await startExecution(deps, body);
      ctx.state.workflowId = started.workflowId;
      ctx.body = { workflowId: started.workflowId, runId: started.runId };
    },
  }),
];
