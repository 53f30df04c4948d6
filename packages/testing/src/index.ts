/**
 * `@skein/testing`: test workflows on a real engine (`createTestEnv`, with steps replaced by `mockSteps`) and
 * replay recorded histories (`replayHistories`). For the fast path, call a `workflow()` or `step()` directly:
 * in plain Node it runs in-process with its schemas checked.
 */
export { createTestEnv, workflowName, type TestEnv, type TestEnvOptions, type StepMock, type WorkflowRef } from './env.js';
export { replayHistories, type ReplayFailure } from './replay.js';
export type { RecordedHistory } from './types.js';
