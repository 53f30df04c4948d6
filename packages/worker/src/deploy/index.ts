/**
 * `@skein/worker/deployment`: a catalog's Worker Versioning deployment as operators and CD systems handle it
 * (`skein deploy`), without the native worker: read the versions, promote, ramp, roll back, and publish the
 * promoted build's catalog for the API.
 */
export {
  describeDeployment,
  describeVersion,
  pollsOnly,
  setCurrentVersion,
  setRampingVersion,
  grpcCode,
  type DeploymentState,
  type DeploymentVersion,
  type VersionDescription,
  type SetCurrentOptions,
  type VersionState,
} from './deployment.js';
export { publishCatalog, publishCurrentCatalog, readCatalogRecord, retireOtherCatalog, CatalogRecordMismatchError, type CatalogDocument } from './catalog.js';
export { versionProjects, PROJECT_METADATA_KEY } from './project-identity.js';
export { syncDeclaredSchedules, declaredScheduleOptions, type ScheduleSyncReport, type DeclaringDocument } from './schedules.js';
export { livePollers, type LivePoller } from './catalog-ownership.js';
export { buildLeaseAlive } from './lease.js';
export { CATALOG_LEASE_TTL_MS } from '@skein/names';
export { loadEngineConfig, loadDeploymentConfig, type EngineConnectionConfig, type DeploymentConfig } from '../host/config.js';
