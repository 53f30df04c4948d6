import { defineRoute } from '../route.js';
import { executionRefSchema } from '../schemas/common.js';
import { startHeadersSchema, startRequestSchema } from '../schemas/workflow.js';
import { startExecution } from '../temporal/start.js';

export const startRoutes = [
  defineRoute({
    method: 'post',
    path: '/workflow/start',
    operationId: 'startWorkflow',
    summary: 'Start a workflow execution',
    description:
      'Starts `workflowName` (a name or alias) on the catalog and answers at once with its ids. `onConflict` and `onClosed` ' +
      'decide what happens when `workflowId` is in use; `use-existing` answers the running execution. With an ' +
      '`Idempotency-Key` header a repeated request answers the same execution, running or closed. `startDelay` delays ' +
      'the first workflow task (a signal does not end the delay).',
    tag: 'Executions',
    body: startRequestSchema,
    headers: startHeadersSchema,
    responses: { 200: { description: 'Started, or the execution the request found (`use-existing`, a repeated Idempotency-Key)', schema: executionRefSchema } },
    errors: ['CatalogNotAvailableError', 'UnsupportedWorkflowError', 'WorkflowExecutionAlreadyStartedError', 'PayloadTooLargeError'],
    async handler({ ctx, deps, body, headers }) {
      const started = await startExecution(deps, { ...body, idempotencyKey: headers['idempotency-key'] });
      ctx.state.workflowId = started.workflowId;
      ctx.state.runId = started.runId;
      ctx.body = { workflowId: started.workflowId, runId: started.runId };
    },
  }),
];
