import type { temporal } from '@temporalio/proto';

/** One run's history to replay, with what names the run in a report. */
export interface ReplayHistory {
  workflowId: string;
  runId: string;
  /** The Temporal workflow type the run was started as (a Skein workflow name or alias). */
  workflowType: string;
  /** Where the history came from: a file path, or `engine`. */
  source: string;
  history: temporal.api.history.v1.IHistory;
}

/** The history event where replay first disagreed with the history. */
export interface MismatchedEvent {
  eventId: number;
  /** Temporal's event type without `EVENT_TYPE_` (e.g. `ACTIVITY_TASK_SCHEDULED`), or null when unknown. */
  eventType: string | null;
}

/** The result of replaying one history. */
export type ReplayOutcome =
  | (Omit<ReplayHistory, 'history'> & { ok: true })
  | (Omit<ReplayHistory, 'history'> & {
      ok: false;
      /** `nondeterminism`: the code makes other decisions than the history records; `failure`: replay failed otherwise. */
      kind: 'nondeterminism' | 'failure';
      /** Temporal's explanation (one line). */
      message: string;
      /** The first history event the code disagreed with, when Temporal's explanation names one. */
      event: MismatchedEvent | null;
    });
