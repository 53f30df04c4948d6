import path from 'node:path';
import { HTTP_REQUEST_ACTIVITY_TYPE } from '@skein/core';
import { traceDestinationsOf, type RemoteTraceLocation } from '@skein/names/traces';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ActivityResolver } from '../host/activities.js';
import { WorkerStartupError } from '../check/errors.js';
import type { TraceConfig } from '../host/config.js';
import { TraceRecorder, type TraceEngine } from './recorder.js';
import type { S3Client } from '@aws-sdk/client-s3';
// The AWS SDK (about 140 ms of CPU to import on a fresh compile cache) is loaded only when S3 traces are on.
import type { S3TraceExporter, UploadBackoff } from './s3.js';
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
 * The S3 trace destination the settings name, as compiled into a workflow bundle: `SKEIN_TRACE_S3_BUCKET` and
 * `SKEIN_TRACE_S3_PREFIX` (`config.s3`), with the endpoint and the region the AWS SDK resolves now (environment,
 * profile; see `traceS3Client`); undefined when no bucket is set. Also returns the S3 client it resolved them with.
 * @throws WorkerStartupError when a bucket is set but the AWS SDK finds no region or cannot read its settings.
 */
export async function traceRemoteOf(config: TraceConfig): Promise<{ remote: RemoteTraceLocation; client: S3Client } | undefined> {
  if (!config.s3) return undefined;
  const { traceS3Client } = await import('./s3.js');
  const { client, endpoint } = await traceS3Client().catch((err: unknown) => {
    throw new WorkerStartupError(`SKEIN_TRACE_S3_BUCKET is set but the AWS SDK cannot read its S3 endpoint setting: ${(err as Error).message}`);
  });
  const region = await client.config.region().catch(() => undefined);
  if (!region) {
    throw new WorkerStartupError(
      `SKEIN_TRACE_S3_BUCKET is set (${config.s3.bucket}) but the AWS SDK finds no region: set AWS_REGION (or the region of the AWS profile in use)`,
    );
  }
  return { remote: { ...config.s3, region, ...(endpoint ? { endpoint } : {}) }, client };
}

/**
 * The one-line reason a worker must not serve a build whose bundle publishes `built` as its runs' S3 trace
 * destination while the worker's settings name `current`, or undefined when they agree. They must be the same
 * destination (bucket, prefix, region, endpoint) or both off: otherwise runs would name objects no worker
 * uploads, or the worker would upload traces its runs never point at.
 */
export function traceRemoteMismatch(built: RemoteTraceLocation | null | undefined, current: RemoteTraceLocation | undefined): string | undefined {
  const text = (r: RemoteTraceLocation | null | undefined) =>
    r ? `s3://${r.bucket}/${r.prefix} (region ${r.region}${r.endpoint ? `, endpoint ${r.endpoint}` : ''})` : 'none';
  if (text(built) === text(current)) return undefined;
  return `the build's S3 trace destination is ${text(built)} but this worker's settings (SKEIN_TRACE_S3_BUCKET, SKEIN_TRACE_S3_PREFIX, AWS region and endpoint) give ${text(current)}: set them as at build time, or run "skein build" again with these settings`;
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
  const s3Destination = await traceRemoteOf(config);
  const remote = s3Destination?.remote;
  let uploader: S3TraceExporter | undefined;
  if (s3Destination) {
    const spoolDir = path.resolve(options.spoolDir ?? config.spoolDir ?? path.join(projectRoot, '.skein', 'trace-spool'));
    const { S3TraceExporter } = await import('./s3.js');
    uploader = new S3TraceExporter(s3Destination.remote, s3Destination.client, spoolDir, logger, options.backoff);
  }
  const exporters = [...(options.exporters ?? []), ...(uploader ? [uploader] : [])];
  const engine: TraceEngine = {
    history: async (workflowId, runId) => (await client).workflow.getHandle(workflowId, runId).fetchHistory(),
    async describe(workflowId, runId) {
      const d = await (await client).workflow.getHandle(workflowId, runId).describe();
      return { closed: d.status.name !== 'RUNNING', destinations: traceDestinationsOf({ memo: d.memo ?? {} }, { workflowId, runId }) };
    },
  };
  const activityKind = (type: string) => {
    const facts = resolver.resolve(type)?.facts;
    if (!facts && type === HTTP_REQUEST_ACTIVITY_TYPE) return { kind: 'internal_step' as const, name: 'sendHttpRequest' };
    return { kind: facts?.kind ?? ('internal_step' as const), name: facts?.name ?? type, ...(facts?.disableTrace ? { untraced: true } : {}) };
  };
  const recorder =
    dir || exporters.length > 0 ? new TraceRecorder(dir, engine, activityKind, exporters, (err) => logger.warn({ err }, 'trace not written')) : undefined;
  return { remote, uploader, recorder };
}
