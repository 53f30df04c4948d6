import { CATALOG_WORKFLOW_TYPE, emit } from '@skein/core';
import { workflowDetailsFrom, type SkeinSinks } from '@skein/core/internal';
import { traceDestinationsOf } from '@skein/names/traces';
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Logger } from 'pino';
import type { WorkerEvents } from './events.js';
import { workflowLogIds, writeLogRecord } from './log-sink.js';

/**
 * Implements the sinks workflow code reports through. Sink calls are never delivered during replay
 * (`callDuringReplay: false`), so hooks run once per real event and a `Logger` line is written once (to `logger`,
 * with the run's ids); `$catalog` reports nothing.
 */
export function skeinSinks(events: WorkerEvents, logger: Logger): InjectedSinks<SkeinSinks> {
  const skip = (info: WorkflowInfo) => info.workflowType === CATALOG_WORKFLOW_TYPE;
  return {
    skein: {
      workflowStarted: { fn: (info, input) => void (skip(info) || events.workflowStarted(workflowDetailsFrom(info), input)), callDuringReplay: false },
      workflowCompleted: {
        fn: (info, output) => void (skip(info) || events.workflowCompleted(workflowDetailsFrom(info), output, traceDestinationsOf(info))),
        callDuringReplay: false,
      },
      workflowFailed: {
        fn: (info, error) => void (skip(info) || events.workflowFailed(workflowDetailsFrom(info), error, traceDestinationsOf(info))),
        callDuringReplay: false,
      },
      workflowContinuedAsNew: {
        fn: (info) => void (skip(info) || events.workflowContinuedAsNew(workflowDetailsFrom(info), traceDestinationsOf(info))),
        callDuringReplay: false,
      },
      emit: { fn: (_info, name, payload) => emit(name, payload), callDuringReplay: false },
      log: { fn: (info, record) => writeLogRecord(logger, record, workflowLogIds(info)), callDuringReplay: false },
    },
  };
}
