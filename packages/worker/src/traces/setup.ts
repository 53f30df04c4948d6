import path from 'node:path';
import { traceDestinationsOf, type RemoteTraceLocation } from '@skein/core';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ActivityResolver } from '../activities.js';
import { WorkerStartupError } from '../errors.js';
import type { TraceConfig } from '../config.js';
import { TraceRecorder, type TraceEngine } from './recorder.js';
import { S3TraceExporter, traceS3Client, type UploadBackoff } from './s3.js';
import type { TraceExporter } from './types.js';

/** A worker's trace machinery, as {@link setUpTraces} builds it. */
export interface WorkerTraces {
  /** The S3 destination compiled into the workflow bundle, when on. */
  remote: RemoteTraceLocation | undefined;
  /** Its sender (start it once the worker polls, stop it at shutdown). */
  uploader: S3TraceExporter | undefined;
  /** The recorder the worker's events feed; undefined when no destination is on. */
  recorder: TraceRecorder | undefined;
}

/**
 * Builds the trace destinations of a worker: the local folder (resolved by the caller), the S3 destination when `SKEIN_TRACE_S3_BUCKET` is set (region
 * resolved through the AWS SDK now), and the recorder that assembles traces from the engine's histories.
 * @throws WorkerStartupError when the S3 destination is on but no AWS region is configured.
 */
export async function setUpTraces(settings: {
  projectRoot: string;
  /** The local trace folder as resolved (`traceDirOf`), or null for none. */
  dir: string | null;
  config: TraceConfig;
  options: { spoolDir?: string; exporters?: TraceExporter[]; backoff?: Partial<UploadBackoff> };
  client: Promise<Client>;
  resolver: ActivityResolver;
  logger: Logger;
}): Promise<WorkerTraces> {
  const { projectRoot, dir, config, options, client, resolver, logger } = settings;
  let remote: RemoteTraceLocation | undefined;
  let uploader: S3TraceExporter | undefined;
  if (config.s3) {
    const { client: s3, endpoint } = traceS3Client();
    const region = await s3.config.region().catch(() => undefined);
    if (!region) {
      throw new WorkerStartupError(
        `SKEIN_TRACE_S3_BUCKET is set (${config.s3.bucket}) but the AWS SDK finds no region: set AWS_REGION (or the region of the AWS profile in use)`,
      );
    }
    remote = { ...config.s3, region, ...(endpoint ? { endpoint } : {}) };
    const spoolDir = path.resolve(options.spoolDir ?? config.spoolDir ?? path.join(projectRoot, '.skein', 'trace-spool'));
    uploader = new S3TraceExporter(remote, s3, spoolDir, logger, options.backoff);
  }
  const exporters = [...(options.exporters ?? []), ...(uploader ? [uploader] : [])];
  const engine: TraceEngine = {
    history: async (workflowId, runId) => (await client).workflow.getHandle(workflowId, runId).fetchHistory(),
    async describe(workflowId, runId) {
      const d = await (await client).workflow.getHandle(workflowId, runId).describe();
      return { closed: d.status.name !== 'RUNNING', destinations: traceDestinationsOf({ memo: d.memo ?? {} }) };
    },
  };
  const activityKind = (type: string) => {
    const facts = resolver.resolve(type)?.facts;
    return { kind: facts?.kind ?? ('internal_step' as const), name: facts?.name ?? type };
  };
  const recorder =
    dir || exporters.length > 0 ? new TraceRecorder(dir, engine, activityKind, exporters, (err) => logger.warn({ err }, 'trace not written')) : undefined;
  return { remote, uploader, recorder };
}
