/**
 * `@skein/dev-server`: find (or build once, from the Go module proxy) the `temporal` CLI binary and run Temporal's
 * dev server from it. Used by `skein dev`, `skein temporal install` and `@skein/testing`; no other Skein package.
 * The same Go route (`locateGoBinary`) installs the other service binaries Skein's own tests run against.
 */
export { locateTemporal, TemporalNotFoundError, TEMPORAL_CLI_GO_VERSION, type LocatedTemporal } from './locate.js';
export { locateGoBinary, buildGoBinary, BinaryNotFoundError, cacheDir, binaryCacheDir, type GoBinarySpec, type LocatedBinary } from './go-binary.js';
export { startDevServer, type DevServer, type DevServerOptions } from './dev-server.js';
export { freePort, isPortTaken, startOnFreePorts } from './free-port.js';
