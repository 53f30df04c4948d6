/**
 * `@skein/worker`: discovers a project's workflow packages, validates them, and serves their workflows and
 * activities on a Temporal task queue (the catalog).
 */
export { startWorker, type StartWorkerOptions, type SkeinWorker } from './worker.js';
export { beginStartupCheck, type ProjectCheck } from './check.js';
export { WorkerStartupError } from './errors.js';
export { loadWorkerConfig, loadEngineConfig, workerSettings, type WorkerConfig, type EngineConnectionConfig } from './config.js';
export { buildCatalogDocument, type CatalogDocument } from './catalog.js';
export { createLogger, logError, logSerializers } from './logger.js';
export type { TraceExporter, TraceFile, TraceNode, TraceNodeKind } from './traces/types.js';
export { redact, isCredentialKey, REDACTED } from './traces/redact.js';
