/**
 * `@skein/api`: the Skein HTTP API (Koa, @koa/router, zod) over `@temporalio/client`.
 * `skein api` and `skein dev` call `loadApiConfig()` then `createApiServer()`.
 */
export { apiSettings, loadApiConfig, ConfigError, type ApiConfig } from './config.js';
export { createApiServer, EngineUnavailableError, type ApiServer, type ApiServerOptions } from './server.js';
export { holdYoungGeneration } from '@skein/settings/heap';
export { buildOpenApiDocument } from './openapi.js';
export { ERROR_TABLE, ApiError, type ErrorType } from './errors.js';
export type { CatalogDocument, CatalogWorkflow, CatalogActivity } from './temporal/catalog.js';
