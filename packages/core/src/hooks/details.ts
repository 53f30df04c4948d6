import type { WorkflowDetails } from './types.js';

/** The fields of Temporal's `WorkflowInfo` that `workflowDetails` is built from. */
export interface WorkflowInfoLike {
  attempt: number;
  continuedFromExecutionRunId?: string;
  firstExecutionRunId: string;
  parent?: { runId: string; workflowId: string; namespace: string };
  root?: { runId: string; workflowId: string };
  runId: string;
  runStartTime: Date;
  startTime: Date;
  workflowId: string;
  workflowType: string;
}

/** `workflowDetails` (the run a hook event belongs to) from a workflow info; pure, usable inside and outside the sandbox. */
export function workflowDetailsFrom(info: WorkflowInfoLike): WorkflowDetails {
  return {
    attempt: info.attempt,
    continuedFromExecutionRunId: info.continuedFromExecutionRunId ?? null,
    firstExecutionRunId: info.firstExecutionRunId,
    parent: info.parent ? { runId: info.parent.runId, workflowId: info.parent.workflowId, namespace: info.parent.namespace } : null,
    root: info.root ? { runId: info.root.runId, workflowId: info.root.workflowId } : null,
    runId: info.runId,
    runStartTime: info.runStartTime.getTime(),
    startTime: info.startTime.getTime(),
    workflowId: info.workflowId,
    workflowType: info.workflowType,
  };
}

/** Header that carries `workflowDetails` from a workflow to the activities it schedules. */
export const WORKFLOW_DETAILS_HEADER = 'skein-workflow-details';
