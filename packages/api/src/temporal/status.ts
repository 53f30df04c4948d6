import { temporal } from './proto.js';

/** Lower-case run statuses (docs/reference/api-contract.md, "Statuses"). */
export type RunStatus = 'running' | 'completed' | 'failed' | 'canceled' | 'terminated' | 'timed_out' | 'continued_as_new';

/** Every run status, in the documented order. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new'] as const;

/** Terminal statuses: every status but `running`. */
export const TERMINAL_STATUSES = RUN_STATUSES.filter((s) => s !== 'running');

/** Statuses as the result response spells them (`cancelled`; every other response says `canceled`). */
export type ResultStatus = Exclude<RunStatus, 'running' | 'canceled'> | 'cancelled';

const S = temporal.api.enums.v1.WorkflowExecutionStatus;

/**
 * Maps a Temporal `WorkflowExecutionStatus` (enum number, or the client's `status.name`) to the API's status.
 * Unknown or paused states read as `running` (the run is not closed).
 */
export function runStatus(status: number | string | null | undefined): RunStatus {
  switch (status) {
    case S.WORKFLOW_EXECUTION_STATUS_COMPLETED:
    case 'COMPLETED':
      return 'completed';
    case S.WORKFLOW_EXECUTION_STATUS_FAILED:
    case 'FAILED':
      return 'failed';
    case S.WORKFLOW_EXECUTION_STATUS_CANCELED:
    case 'CANCELLED':
    case 'CANCELED':
      return 'canceled';
    case S.WORKFLOW_EXECUTION_STATUS_TERMINATED:
    case 'TERMINATED':
      return 'terminated';
    case S.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
    case 'TIMED_OUT':
      return 'timed_out';
    case S.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW:
    case 'CONTINUED_AS_NEW':
      return 'continued_as_new';
    default:
      return 'running';
  }
}

/** The result response's spelling of a terminal status (`canceled` → `cancelled`). */
export function resultStatus(status: Exclude<RunStatus, 'running'>): ResultStatus {
  return status === 'canceled' ? 'cancelled' : status;
}
