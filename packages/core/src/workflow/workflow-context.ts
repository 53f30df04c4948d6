import { ApplicationFailure, continueAsNew, workflowInfo } from '@temporalio/workflow';
import type { WorkflowContext, WorkflowRunInfo } from '../shared/context.js';
import type { WorkflowDefinition } from '../shared/definition.js';
import { SCHEMA_ERROR_TYPE, checkSchema } from '../shared/validate.js';
import type { SkeinRunArgs } from './context.js';

/** `context.info` of the current run, from Temporal's `workflowInfo()`. */
export function runInfo(): WorkflowRunInfo {
  const info = workflowInfo();
  return {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    attempt: info.attempt,
    parent: info.parent ? { workflowId: info.parent.workflowId, runId: info.parent.runId, namespace: info.parent.namespace } : null,
    root: info.root ? { workflowId: info.root.workflowId, runId: info.root.runId } : null,
    startTime: info.startTime.getTime(),
    catalog: info.taskQueue,
  };
}

/**
 * The `context` a workflow's `fn` receives in the sandbox. `control.continueAsNew(input)` checks `input`
 * against the definition's `inputSchema`, then continues as new with the same workflow type and catalog and
 * the same activity-option layers (`args`), so the next run behaves as this one did;
 * `control.isContinueAsNewSuggested()` reads the engine's suggestion at the time of the call.
 */
export function workflowContext(def: WorkflowDefinition, args: SkeinRunArgs | undefined): WorkflowContext {
  return {
    info: runInfo(),
    control: {
      async continueAsNew(input: unknown): Promise<never> {
        const checked = checkSchema(def.inputSchema, input ?? undefined, `continueAsNew input of workflow "${def.name}"`);
        if (!checked.ok) throw ApplicationFailure.nonRetryable(checked.message, SCHEMA_ERROR_TYPE);
        return continueAsNew<(input: unknown, args?: SkeinRunArgs) => Promise<unknown>>(input ?? null, args ?? {});
      },
      isContinueAsNewSuggested: () => workflowInfo().continueAsNewSuggested,
    },
  };
}
