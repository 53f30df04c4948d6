/** Shapes shared by the test environment and the replay check. */
import type { ReplayHistory } from '@skein/worker';

/** A recorded history of one workflow execution, as `TestEnv.history()` answers it (or as saved in a JSON file). */
export interface RecordedHistory {
  workflowId: string;
  history: ReplayHistory['history'];
}
