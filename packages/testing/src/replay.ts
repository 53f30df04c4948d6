/**
 * `replayHistories()`: replays recorded workflow histories against the current workflow code, the check that
 * a code change keeps running executions deterministic.
 */
import type { HistoryAndWorkflowId } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { TestEnv } from './env.js';

/** One failed replay: which workflow execution, and Temporal's error (a `DeterminismViolationError` usually). */
export interface ReplayFailure {
  workflowId: string;
  error: Error;
}

/**
 * Replays every history against the workflow code of `code` (a test environment's worker, or a bundle).
 * @param histories what `TestEnv.history()` answers, or histories saved as JSON (`{ workflowId, history }`).
 * @returns the failures, empty when every history replays.
 */
export async function replayHistories(code: TestEnv | { code: string }, histories: Iterable<HistoryAndWorkflowId>): Promise<ReplayFailure[]> {
  const workflowBundle = 'worker' in code ? code.worker.workflowBundle : code;
  const failures: ReplayFailure[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle }, histories)) {
    if (result.error) failures.push({ workflowId: result.workflowId, error: result.error });
  }
  return failures;
}
