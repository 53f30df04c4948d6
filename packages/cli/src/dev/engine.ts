import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { freePort, locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';
import { forgetServer, recordServer, stopLeftoverServer } from './leftover-server.js';

/** Temporal's default gRPC port, which `skein dev` tries first for its own dev server. */
export const DEFAULT_TEMPORAL_PORT = 7233;

/** Options of `devEngine()`. */
export interface DevEngineOptions {
  /** An existing server to use instead of starting one (`--temporal-address`, else `TEMPORAL_ADDRESS`). */
  address?: string;
  /** Port for the own dev server. When given, it must be free; when omitted, 7233 or else any free port. */
  port?: number;
  uiPort?: number;
  /** Dev state directory: the server's SQLite file goes here. */
  dataDir: string;
  logger: Logger;
  /** Receives the dev server's own output (debug level). */
  engineLogger: Logger;
  /** Told the own server's process as soon as it is spawned (see `startDevServer`'s `onSpawn`). */
  onSpawn?: (child: ChildProcess) => void;
}

/** The engine `skein dev` uses: its own dev server, or one it was pointed at. */
export interface DevEngine {
  address: string;
  /** Set when `skein dev` started the server (and stops it on exit). */
  server?: DevServer;
  /** Human text for the banner: where the engine comes from. */
  description: string;
}

/** Whether nothing listens on 127.0.0.1:`port`. */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** Thrown when an explicitly requested port is taken; `message` names the fix. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
}

/**
 * Picks the engine of `skein dev` (`skein dev` owns its engine): an explicit address is used as is;
 * otherwise (after stopping a server an earlier `skein dev` on the data directory left running: leftover-server.ts)
 * the project gets its own dev server, on 7233 when free, else on a free port (never sharing another
 * project's server by accident: both projects' workers would poll the same catalog). The binary is located or
 * installed first, with progress.
 * @throws PortInUseError when `port` was given and is taken; TemporalNotFoundError when no binary can be had.
 */
export async function devEngine(options: DevEngineOptions): Promise<DevEngine> {
  const { logger } = options;
  if (options.address) return { address: options.address, description: `the Temporal server at ${options.address} (shared)` };
  // A server an earlier `skein dev` on this data directory left running (killed outright) holds its port and its
  // SQLite file: stopped first.
  const leftover = await stopLeftoverServer(options.dataDir);
  if (leftover !== undefined) logger.info(`stopped the dev server an earlier skein dev left running (pid ${leftover})`);
  let port = options.port;
  if (port !== undefined && !(await portIsFree(port))) {
    throw new PortInUseError(
      `port ${port} (--temporal-port) is already in use: choose another, omit it to use a free port, or pass --temporal-address 127.0.0.1:${port} to share that server`,
    );
  }
  if (port === undefined) {
    port = DEFAULT_TEMPORAL_PORT;
    if (!(await portIsFree(port))) {
      port = await freePort();
      logger.info(
        `port ${DEFAULT_TEMPORAL_PORT} is taken (another dev server?); this project's own dev server uses port ${port} (use --temporal-address to share one instead)`,
      );
    }
  }
  const temporal = await locateTemporal({ install: true, log: (l) => logger.info(l) });
  const dbFile = path.join(options.dataDir, 'temporal.sqlite');
  const start = (p: number) =>
    startDevServer({
      binary: temporal.path,
      dbFile,
      port: p,
      uiPort: options.uiPort,
      onOutput: (line) => options.engineLogger.debug(line),
      // Ctrl-C in the terminal reaches `skein dev` only: it stops the worker first, the engine last.
      detached: true,
      onSpawn: (child) => {
        if (child.pid !== undefined) recordServer(options.dataDir, child.pid, dbFile);
        void once(child, 'exit').then(() => forgetServer(options.dataDir));
        options.onSpawn?.(child);
      },
    });
  let server: DevServer;
  try {
    server = await start(port);
  } catch (err) {
    // Another `skein dev` may have taken 7233 between the check and the start: the own server moves, once.
    if (options.port !== undefined || (await portIsFree(port))) throw err;
    port = await freePort();
    logger.info(`port ${DEFAULT_TEMPORAL_PORT} was taken meanwhile; this project's own dev server uses port ${port}`);
    server = await start(port);
  }
  return { address: server.address, server, description: `own dev server on ${server.address} (${temporal.version.split('\n')[0]})` };
}
