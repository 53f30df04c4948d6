import {
  WORKFLOW_DETAILS_HEADER,
  emptyAggregations,
  runInActivityScope,
  serializeError,
  type ActivityDetails,
  type OutputActivityKind,
  type WorkflowDetails,
} from '@skein/core';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { WorkerEvents } from './events.js';
import type { ActivityResolver } from '../activities.js';

/**
 * Wraps every activity attempt: reads the scheduling workflow's `workflowDetails` from its header, runs the
 * activity in an activity scope (so `emit`, `fetch` and `reportLlmUsage` know where they are and sum
 * `aggregations`), and reports start, end or error.
 */
export function activityInterceptor(resolver: ActivityResolver, events: WorkerEvents): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const info = ctx.info;
        const header = input.headers[WORKFLOW_DETAILS_HEADER];
        const details: WorkflowDetails = header ? defaultPayloadConverter.fromPayload<WorkflowDetails>(header) : fallbackDetails(info);
        const known = resolver.resolve(info.activityType)?.facts;
        const kind: OutputActivityKind = known?.kind ?? 'internal_step';
        const activityInfo: ActivityDetails = {
          activityId: info.activityId,
          activityType: info.activityType,
          name: known?.name ?? info.activityType,
          attempt: info.attempt,
          taskQueue: info.taskQueue,
          scheduledTime: info.currentAttemptScheduledTimestampMs,
        };
        const aggregations = emptyAggregations();
        const arg = input.args[0];
        events.activityStarted(details, activityInfo, kind, arg);
        try {
          const output = await runInActivityScope({ workflowDetails: details, activityInfo, kind, aggregations }, () => next(input));
          events.activityCompleted(details, activityInfo, kind, output, aggregations);
          return output;
        } catch (err) {
          events.activityFailed(details, activityInfo, kind, serializeError(err), aggregations);
          throw err;
        }
      },
    },
  });
}

function fallbackDetails(info: {
  workflowExecution?: { workflowId: string; runId: string };
  workflowType?: string;
  scheduledTimestampMs: number;
}): WorkflowDetails {
  const workflowId = info.workflowExecution?.workflowId ?? '';
  const runId = info.workflowExecution?.runId ?? '';
  return {
    attempt: 1,
    continuedFromExecutionRunId: null,
    firstExecutionRunId: runId,
    parent: null,
    root: null,
    runId,
    runStartTime: info.scheduledTimestampMs,
    startTime: info.scheduledTimestampMs,
    workflowId,
    workflowType: info.workflowType ?? '',
  };
}
