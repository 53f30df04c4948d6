/**
 * `@skein/worker`: discovers a project's workflow packages, validates them, and serves their workflows and
 * activities on a Temporal task queue (the catalog).
 */
export { startWorker, type StartWorkerOptions, type SkeinWorker } from './worker.js';
export { beginStartupCheck, type ProjectCheck } from './check.js';
export { WorkerStartupError } from './errors.js';
export { holdYoungGeneration } from './main-heap.js';
export { processHeapFlags } from './workflow-thread.js';
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
} from './config.js';
export { computeBuildId, resolveBuildId, type BuildIdInputs } from './deploy/build-id.js';
export { buildCatalogDocument, type CatalogDocument } from './catalog.js';
export { createLogger, logError, logSerializers } from './logger.js';
export type { TraceExporter, TraceFile, TraceNode, TraceNodeKind } from './traces/types.js';
export { redact, isCredentialKey, REDACTED } from './traces/redact.js';
export { TRACE_EXPORT_CHANNEL, type TraceExportOutcome } from './traces/outcome.js';
// The S3 exporter stays internal: exporting it here would load the AWS SDK with every worker.
export type { UploadBackoff } from './traces/s3.js';
export { sweepTraces } from './traces/retention.js';
export { prepareProject, type PreparedProject, type PrepareOptions } from './build/prepare.js';
export { replayHistories, mismatchedEvent, type ReplayOptions } from './replay/replay.js';
export {
  readHistoryFiles,
  historyFiles,
  historyFromText,
  replayHistoryOf,
  HistoryFileError,
  HISTORY_FILE_MAX_BYTES,
  type HistoryFilesOptions,
} from './replay/history-files.js';
export { engineHistories, type EngineHistoryQuery } from './replay/engine-histories.js';
export type { ReplayHistory, ReplayOutcome, MismatchedEvent } from './replay/types.js';
export { writeBuild, openBuild, insideProjectCode, type BuildRecord, type OpenedBuild } from './build/build-dir.js';
export { looksLikeBuild, BUILD_RECORD, BUILD_FILES } from './build/build-files.js';
