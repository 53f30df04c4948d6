/**
 * `replayHistories()`: replays recorded workflow histories against the current workflow code, the check that a code
 * change keeps running executions deterministic. The worker's replay (the one `skein replay` uses) does the work.
 */
import { replayHistories as replayOnBundle, type ReplayHistory, type ReplayOutcome } from '@skein/worker';
import type { TestEnv } from './env.js';
import type { RecordedHistory } from './types.js';

/**
 * One history that no longer replays: `kind` `nondeterminism` (the code makes other decisions than the history
 * records) or `failure`, Temporal's one-line `message`, and the first mismatching history `event` when named.
 */
export type ReplayFailure = Extract<ReplayOutcome, { ok: false }>;

function asReplayHistory({ workflowId, history }: RecordedHistory): ReplayHistory {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return { workflowId, runId: started?.originalExecutionRunId ?? '', workflowType: started?.workflowType?.name ?? '', source: 'test', history };
}

/**
 * Replays every history against the workflow code of `code` (a test environment's worker, or a bundle `{ code }`),
 * without the engine.
 * @param histories what `TestEnv.history()` answers, or histories saved as JSON (`{ workflowId, history }`).
 * @returns the histories that no longer replay, empty when every one does.
 * @throws the replayer's error when the bundle cannot be loaded at all.
 */
export async function replayHistories(code: TestEnv | { code: string }, histories: Iterable<RecordedHistory>): Promise<ReplayFailure[]> {
  const bundle = 'worker' in code ? code.worker.workflowBundle.code : code.code;
  const failures: ReplayFailure[] = [];
  for await (const outcome of replayOnBundle(bundle, [...histories].map(asReplayHistory))) if (!outcome.ok) failures.push(outcome);
  return failures;
}
