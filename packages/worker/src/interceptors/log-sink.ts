/**
 * Where `Logger` lines of package code go: the worker's pino logger, one JSON line each, with the ids of the run
 * (and of the activity, in a step) that wrote them. Workflow code's lines arrive through the `skein.log` sink
 * (never during replay); steps' lines through the Node sink the worker installs (`setNodeLogSink`).
 */
import { type LogLevel, type LogRecord } from '@skein/core';
import { currentActivityScope, setNodeLogSink } from '@skein/core/internal';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Logger } from 'pino';

/** pino's level for each of `Logger`'s npm levels (the npm name is kept in `logLevel`). */
const PINO_LEVEL: Record<LogLevel, 'error' | 'warn' | 'info' | 'debug' | 'trace'> = {
  error: 'error',
  warn: 'warn',
  info: 'info',
  http: 'info',
  verbose: 'debug',
  debug: 'debug',
  silly: 'trace',
};

/** Writes one record with `ids` (the run's, and the activity's in a step) under component `Logger`. */
export function writeLogRecord(logger: Logger, record: LogRecord, ids: Record<string, unknown>): void {
  logger[PINO_LEVEL[record.level] ?? 'info']({ component: 'Logger', logLevel: record.level, ...ids, ...record.fields }, record.message);
}

/** The ids of a workflow-code line: the run's. */
export function workflowLogIds(info: Pick<WorkflowInfo, 'workflowId' | 'runId' | 'workflowType'>): Record<string, unknown> {
  return { workflowId: info.workflowId, runId: info.runId, workflowType: info.workflowType };
}

/**
 * Installs the Node sink of `Logger` (steps, evaluators, hook files): inside an activity a line carries the run's
 * and the activity's ids; elsewhere none.
 * @returns a function that removes the sink.
 */
export function installNodeLogSink(logger: Logger): () => void {
  return setNodeLogSink((record) => {
    const scope = currentActivityScope();
    const ids = scope
      ? {
          workflowId: scope.workflowDetails.workflowId,
          runId: scope.workflowDetails.runId,
          workflowType: scope.workflowDetails.workflowType,
          activityId: scope.activityInfo.activityId,
          activityType: scope.activityInfo.activityType,
          attempt: scope.activityInfo.attempt,
        }
      : {};
    writeLogRecord(logger, record, ids);
  });
}
