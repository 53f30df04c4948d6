import { type ActivityDetails, type OutputActivityKind, type WorkflowDetails } from '@skein/core';
import { WORKFLOW_DETAILS_HEADER, emptyAggregations, runInActivityScope, serializeError, type ActivityScope } from '@skein/core/internal';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { WorkerEvents } from './events.js';
import { asHistoryNames, handOn, receivedAttemptErrors } from '../traces/attempts.js';
import type { ActivityResolver } from '../host/activities.js';
import { rememberActivitySpan } from '../host/logger.js';

/**
 * Wraps every activity attempt: reads the scheduling workflow's `workflowDetails` from its header, runs the
 * activity in an activity scope (so `emit`, `fetch` and `reportLlmUsage` know where they are and sum
 * `aggregations`), and reports start, end or error. A failing attempt hands the errors of every attempt so far
 * on to the next one and into history (`handOn`), so a trace assembled on any worker holds them all.
 */
export function activityInterceptor(resolver: ActivityResolver, events: WorkerEvents): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const info = ctx.info;
        // Inside the attempt's span (tracing's interceptor runs first): Temporal's own lines about it get its ids.
        rememberActivitySpan(info.base64TaskToken);
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
        const workflowFilename = resolver.workflowFileOf(details.workflowType);
        const scope: ActivityScope = { workflowDetails: details, activityInfo, kind, aggregations, ...(workflowFilename ? { workflowFilename } : {}) };
        try {
          const output = await runInActivityScope(scope, () => next(input));
          if (scope.traceEvents?.length) events.activityTraceEvents(details, activityInfo, scope.traceEvents);
          events.activityCompleted(details, activityInfo, kind, output, aggregations);
          return output;
        } catch (err) {
          if (scope.traceEvents?.length) events.activityTraceEvents(details, activityInfo, scope.traceEvents);
          const error = serializeError(err);
          events.activityFailed(details, activityInfo, kind, error, aggregations);
          if (info.isLocal) throw err;
          // Every attempt's error so far goes on to the next attempt and into history (traces/attempts.ts).
          const next = handOn(info, receivedAttemptErrors(info.heartbeatDetails), asHistoryNames(error), err);
          ctx.heartbeat(next.heartbeat);
          throw next.error;
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
