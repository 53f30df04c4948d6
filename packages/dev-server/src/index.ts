/**
 * `@skein/dev-server`: find (or build once, from the Go module proxy) the `temporal` CLI binary and run Temporal's
 * dev server from it. Used by `skein dev`, `skein temporal install` and `@skein/testing`; no other Skein package.
 */
export { locateTemporal, TemporalNotFoundError, TEMPORAL_CLI_GO_VERSION, cacheDir, type LocatedTemporal } from './locate.js';
export { startDevServer, freePort, type DevServer, type DevServerOptions } from './dev-server.js';
