import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { ApiError } from '../errors.js';
import { engine } from './engine.js';
import { historyPages } from './history-pages.js';
import { temporal, toNumber } from './proto.js';

const EventType = temporal.api.enums.v1.EventType;

/** Reads every event of a run (engine pages of 1 000). @throws ApiError as `historyPages` does. */
export async function fullHistory(client: Client, workflowId: string, runId: string, signal?: AbortSignal): Promise<T.api.history.v1.IHistoryEvent[]> {
  const events: T.api.history.v1.IHistoryEvent[] = [];
  for await (const page of historyPages(client, workflowId, runId, signal)) events.push(...page);
  return events;
}

/**
 * Finds the reset point of "reset after step `stepName`" (brief "Reset by stepName"): the first
 * `WorkflowTaskCompleted` after the last `ActivityTaskCompleted` whose scheduled activity type is
 * `<workflowType>#<stepName>`.
 * @returns the event id of that `WorkflowTaskCompleted`.
 * @throws ApiError `StepNotFoundError` (404) when no such activity was scheduled; `StepNotCompletedError` (409)
 *   when it never completed or no workflow task completed after it.
 */
export function resetPoint(events: T.api.history.v1.IHistoryEvent[], workflowType: string, stepName: string, workflowId: string): number {
  const type = `${workflowType}#${stepName}`;
  const scheduled = new Set<number>();
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED && e.activityTaskScheduledEventAttributes?.activityType?.name === type) {
      scheduled.add(toNumber(e.eventId));
    }
  }
  if (scheduled.size === 0) {
    throw new ApiError('StepNotFoundError', { workflowId, message: `No step "${stepName}" was scheduled in this run` });
  }
  let completedAt = -1;
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED && scheduled.has(toNumber(e.activityTaskCompletedEventAttributes?.scheduledEventId))) {
      completedAt = toNumber(e.eventId);
    }
  }
  const wftCompleted =
    completedAt < 0 ? undefined : events.find((e) => toNumber(e.eventId) > completedAt && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  if (completedAt < 0) {
    throw new ApiError('StepNotCompletedError', { workflowId, message: `Step "${stepName}" has not completed in this run` });
  }
  if (!wftCompleted) {
    throw new ApiError('StepNotCompletedError', {
      workflowId,
      message: `Step "${stepName}" completed, but no workflow task completed after it in this run (it closed or waits first): there is no point to reset to yet`,
    });
  }
  return toNumber(wftCompleted.eventId);
}

/** Resets a run to `workflowTaskFinishEventId`; returns the new run id. */
export async function resetTo(client: Client, workflowId: string, runId: string, eventId: number, reason: string): Promise<string> {
  const res = await engine(workflowId, () =>
    client.workflowService.resetWorkflowExecution({
      namespace: client.options.namespace,
      workflowExecution: { workflowId, runId },
      workflowTaskFinishEventId: eventId as never,
      reason,
      requestId: randomUUID(),
    }),
  );
  return res.runId ?? '';
}
