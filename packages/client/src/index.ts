/**
 * `@skein/client`: a typed fetch client of the Skein HTTP API, for the `skein workflow` commands and any other
 * Node program. It needs only the API's URL (and its token when one is required): no engine connection, no
 * worker code. Types come from the API's OpenAPI document (`generated/openapi.ts`).
 */
export {
  SkeinClient,
  DEFAULT_API_URL,
  type SkeinClientOptions,
  type CallOptions,
  type RunOptions,
  type HistoryOptions,
  type ListRunsOptions,
  type RunCallOptions,
  type StartCallOptions,
  type ListBatchesOptions,
} from './client.js';
export { SkeinSchedules, type ListSchedulesOptions } from './schedules.js';
export { SkeinApiError, SkeinConnectionError, isTransient, type ApiValidationIssue } from './errors.js';
export type { FollowHistoryOptions, HistoryStreamFrame, ReconnectInfo } from './history-stream.js';
export { parseApiTime } from './time.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
