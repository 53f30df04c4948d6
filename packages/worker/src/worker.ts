import type { Manifest } from '@skein/discovery';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { buildActivities } from './activities.js';
import { bundleWorkflows } from './bundle/bundle.js';
import { buildCatalogDocument, publishCatalog, type CatalogDocument } from './catalog.js';
import { loadWorkerConfig, type EngineConnectionConfig } from './config.js';
import { WorkerStartupError } from './errors.js';
import { loadProject } from './load.js';
import { createLogger, installTemporalRuntimeLogger } from './logger.js';
import { checkProject } from './validate.js';

/** Options of `startWorker()`; anything omitted comes from the environment (`loadWorkerConfig`). */
export interface StartWorkerOptions {
  /** The project to serve: its own workflows plus every exposed package in its node_modules. */
  projectDir: string;
  /** Catalog (task queue); default `SKEIN_CATALOG` or `main`. */
  catalog?: string;
  /** Engine connection; default from Temporal's env config (`TEMPORAL_ADDRESS`, ...). */
  engine?: Partial<EngineConnectionConfig> & { address: string };
  logger?: Logger;
  /** Graceful shutdown: how long in-flight activities may take to finish, ms. Default 10 000. */
  shutdownGraceTimeMs?: number;
}

/** A running worker. */
export interface SkeinWorker {
  catalog: string;
  manifest: Manifest;
  catalogDocument: CatalogDocument;
  /** Resolves when the worker has stopped (after `shutdown()`), rejects if it crashed. */
  readonly done: Promise<void>;
  /** Stops polling, lets in-flight activities finish within the grace time, closes connections. */
  shutdown(): Promise<void>;
}

/**
 * Starts a Skein worker: validates the project statically (refusing to start on errors, before touching the
 * engine), loads its definitions, bundles its workflows once, registers workflows and activities on the
 * catalog task queue and publishes the catalog (`$catalog`).
 * @throws WorkerStartupError: invalid project (message = every diagnostic), no workflows, module load or
 *   bundling failure, engine unreachable (one line naming the address).
 */
export async function startWorker(options: StartWorkerOptions): Promise<SkeinWorker> {
  const env = loadWorkerConfig();
  const logger = options.logger ?? createLogger('skein-worker');
  const catalog = options.catalog ?? env.catalog;
  const engine: EngineConnectionConfig = {
    ...env.engine,
    ...options.engine,
    connectionOptions: { ...env.engine.connectionOptions, ...options.engine?.connectionOptions },
  } as EngineConnectionConfig;

  const manifest = await checkProject(options.projectDir, logger);
  if (manifest.workflows.length === 0) {
    throw new WorkerStartupError(`No workflows found in ${manifest.root}: add a workflow.js or install a package that exposes workflows`);
  }
  const project = await loadProject(manifest);
  const activities = buildActivities(project);
  const t0 = Date.now();
  const workflowBundle = await bundleWorkflows(project);
  logger.debug({ ms: Date.now() - t0 }, 'workflow bundle built');

  installTemporalRuntimeLogger(logger);
  let nativeConnection: NativeConnection;
  let clientConnection: Connection;
  try {
    nativeConnection = await NativeConnection.connect({ ...engine.connectionOptions, address: engine.address });
    clientConnection = await Connection.connect({ ...(engine.connectionOptions as object), address: engine.address, connectTimeout: 5000 });
  } catch (err) {
    throw new WorkerStartupError(`Cannot reach Temporal at ${engine.address}: ${(err as Error).message.split('\n')[0]}`);
  }
  const closeConnections = async () => {
    await Promise.allSettled([nativeConnection.close(), clientConnection.close()]);
  };
  try {
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: engine.namespace,
      taskQueue: catalog,
      workflowBundle,
      activities,
      shutdownGraceTime: options.shutdownGraceTimeMs ?? 10_000,
    });
    const client = new Client({ connection: clientConnection, namespace: engine.namespace });
    const catalogDocument = buildCatalogDocument(project, catalog);
    const done = worker.run().finally(closeConnections);
    await publishCatalog(client, catalogDocument);
    logger.info(
      { catalog, address: engine.address, namespace: engine.namespace, workflows: catalogDocument.workflows.map((w) => w.name) },
      `worker serving ${catalogDocument.workflows.length} workflow(s) on catalog "${catalog}"`,
    );
    return {
      catalog,
      manifest,
      catalogDocument,
      done,
      async shutdown() {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await done.catch(() => {});
      },
    };
  } catch (err) {
    await closeConnections();
    if (err instanceof WorkerStartupError) throw err;
    throw new WorkerStartupError(`Worker failed to start: ${(err as Error).message.split('\n')[0]}`, (err as Error).stack);
  }
}
