/**
 * `@skein/cli`: the `skein` command (dev, worker, api, temporal) and the engine helpers it is built on.
 */
export { locateTemporal, TemporalNotFoundError, TEMPORAL_CLI_GO_VERSION, cacheDir, type LocatedTemporal } from './temporal/locate.js';
export { startDevServer, freePort, type DevServer, type DevServerOptions } from './temporal/dev-server.js';
