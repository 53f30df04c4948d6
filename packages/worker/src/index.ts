/**
 * `@skein/worker`: discovers a project's workflow packages, validates them, and serves their workflows and
 * activities on a Temporal task queue (the catalog).
 */
export { startWorker, type StartWorkerOptions, type SkeinWorker } from './worker.js';
export { beginStartupCheck, type ProjectCheck } from './check/check.js';
export { WorkerStartupError } from './check/errors.js';
export { holdYoungGeneration, reduceHeap } from '@skein/settings/heap';
export { processHeapFlags } from './host/workflow-thread.js';
export {
  loadWorkerConfig,
  loadEngineConfig,
  loadDeploymentConfig,
  loadMetricsConfig,
  workerSettings,
  type WorkerConfig,
  type EngineConnectionConfig,
  type DeploymentConfig,
  type MetricsConfig,
} from './host/config.js';
export { computeBuildId, resolveBuildId, type BuildIdInputs } from './deploy/build-id.js';
export { buildCatalogDocument, type CatalogDocument } from './deploy/catalog.js';
export { createLogger, logError, logSerializers } from './host/logger.js';
export type { TraceExporter, TraceFile, TraceNode, TraceNodeKind } from './traces/types.js';
export { redact, isCredentialKey, REDACTED } from './traces/redact.js';
export { TRACE_EXPORT_CHANNEL, type TraceExportOutcome } from './traces/outcome.js';
// The S3 exporter stays internal: exporting it here would load the AWS SDK with every worker.
export type { UploadBackoff } from './traces/s3.js';
export { sweepTraces } from './traces/retention.js';
export { prepareProject, type PreparedProject, type PrepareOptions } from './deploy/build/prepare.js';
export { replayHistories, mismatchedEvent, type ReplayOptions } from './deploy/replay/replay.js';
export {
  readHistoryFiles,
  historyFiles,
  historyFromText,
  replayHistoryOf,
  HistoryFileError,
  HISTORY_FILE_MAX_BYTES,
  type HistoryFilesOptions,
} from './deploy/replay/history-files.js';
export { engineHistories, type EngineHistoryQuery } from './deploy/replay/engine-histories.js';
export type { ReplayHistory, ReplayOutcome, MismatchedEvent } from './deploy/replay/types.js';
export { writeBuild, openBuild, insideProjectCode, prepareBuildOutput, type BuildRecord, type OpenedBuild } from './deploy/build/build-dir.js';
export { looksLikeBuild, BUILD_RECORD, BUILD_FILES } from './deploy/build/build-files.js';
