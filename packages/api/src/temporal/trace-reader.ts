import { readFile } from 'node:fs/promises';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Client } from '@temporalio/client';
import { catalogWorkflowId } from './catalog.js';
import type { TraceDestinations } from './runs.js';
import { localTraceFile, remoteTraceKey, type TraceBucket } from './trace-source.js';

/** Largest trace the API reads (bytes). */
export const MAX_TRACE_BYTES = 50 * 1024 * 1024;

/** How long the trace folders a catalog's workers advertise are cached, ms. */
const FOLDERS_TTL_MS = 5_000;

/** A trace read from one destination. */
export interface TraceRead {
  source: 'local' | 'remote';
  location: string;
  data: unknown;
}

/** The run whose trace is read: its ids, its root's ids, its catalog, and the destinations its memo names. */
export interface TraceRun {
  workflowId: string;
  runId: string;
  root: { workflowId: string; runId: string };
  taskQueue: string;
  destinations: TraceDestinations;
}

/**
 * Reads runs' traces for `trace-log`: the remote destination first (the S3 object, through the AWS SDK with its
 * standard region, endpoint and credential settings), then the local file, each only when it is the one derived
 * from the run's own root ids (see `trace-source.ts`). Local files are read from the folders the run's catalog's
 * workers advertise in their catalog document, plus `SKEIN_TRACE_DIR` when set.
 */
export class TraceReader {
  readonly #client: Client;
  readonly #dir: string | null;
  readonly #s3: Promise<{ client: S3Client; location: TraceBucket }> | null;
  readonly #folders = new Map<string, { at: number; dirs: Promise<string[]> }>();

  /**
   * @param client the engine client (catalog documents).
   * @param config `traceDir`: an extra local folder (null = only advertised ones); `traceS3`: the bucket and prefix.
   *   The S3 client takes region, credentials and endpoint from the AWS SDK's own settings (environment, profile
   *   and its `endpoint_url` or `services` section); a custom endpoint, however it was set, is addressed path-style.
   */
  constructor(client: Client, config: { traceDir: string | null; traceS3: { bucket: string; prefix: string } | null }) {
    this.#client = client;
    this.#dir = config.traceDir;
    this.#s3 = config.traceS3 ? traceBucketClient(config.traceS3) : null;
    // A settings error is reported when a trace is read (a 404 naming the remote destination's reason).
    this.#s3?.catch(() => {});
  }

  /**
   * The run's trace, or why none could be read (one reason per destination tried).
   */
  async read(run: TraceRun, signal: AbortSignal): Promise<TraceRead | { failures: string[] }> {
    const failures: string[] = [];
    const { remote, local } = run.destinations;
    if (remote) {
      try {
        return { source: 'remote', location: remote, data: await this.#readRemote(remote, run.root.workflowId, signal) };
      } catch (err) {
        failures.push(`remote ${remote}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (local) {
      try {
        return { source: 'local', location: local, data: await this.#readLocal(run, local) };
      } catch (err) {
        failures.push(`local ${local}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (!remote && !local) failures.push('the run names no trace destination');
    return { failures };
  }

  async #readRemote(url: string, rootWorkflowId: string, signal: AbortSignal): Promise<unknown> {
    if (!this.#s3) throw new Error('no S3 destination is configured (SKEIN_TRACE_S3_BUCKET)');
    const { client, location } = await this.#s3;
    const key = remoteTraceKey(location, url, rootWorkflowId);
    if (!key) throw new Error(`not this run's object in bucket "${location.bucket}" under prefix "${location.prefix}"`);
    const res = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }), { abortSignal: signal });
    if ((res.ContentLength ?? 0) > MAX_TRACE_BYTES) throw new Error('trace object too large');
    const text = await res.Body!.transformToString();
    return JSON.parse(text) as unknown;
  }

  async #readLocal(run: TraceRun, named: string): Promise<unknown> {
    const dirs = [...(this.#dir ? [this.#dir] : []), ...(await this.#advertised(run.taskQueue))];
    const file = await localTraceFile(dirs, run.root, named);
    if (!file) throw new Error(`not this run's trace file in a trace folder of catalog "${run.taskQueue}" (${dirs.join(', ') || 'none advertised'})`);
    const text = await readFile(file, 'utf8');
    if (text.length > MAX_TRACE_BYTES) throw new Error('trace file too large');
    return JSON.parse(text) as unknown;
  }

  /** The trace folders the catalog's workers advertise (the document in the memo of `$catalog:<catalog>`, running or last closed). */
  #advertised(catalog: string): Promise<string[]> {
    const hit = this.#folders.get(catalog);
    if (hit && Date.now() - hit.at < FOLDERS_TTL_MS) return hit.dirs;
    const dirs = this.#client.workflow
      .getHandle(catalogWorkflowId(catalog))
      .describe()
      .then(
        (d) => {
          const listed = (d.memo?.catalog as { traceDirs?: unknown } | undefined)?.traceDirs;
          return Array.isArray(listed) ? listed.filter((x): x is string => typeof x === 'string') : [];
        },
        () => [] as string[],
      );
    this.#folders.set(catalog, { at: Date.now(), dirs });
    return dirs;
  }
}

/**
 * The S3 client that reads the trace bucket, and where the bucket is: the custom endpoint the AWS SDK resolves
 * from its settings (read through the client's own resolver: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the
 * profile's `services` section or `endpoint_url`), else its region.
 * @throws when the SDK cannot read its settings.
 */
async function traceBucketClient(bucket: { bucket: string; prefix: string }): Promise<{ client: S3Client; location: TraceBucket }> {
  const options = { maxAttempts: 2, requestHandler: { connectionTimeout: 3_000, requestTimeout: 10_000 } };
  const probe = new S3Client(options);
  const resolve = (probe.config as { serviceConfiguredEndpoint?: () => Promise<string | undefined> }).serviceConfiguredEndpoint;
  const endpoint = (await resolve?.())?.trim() || undefined;
  if (endpoint) {
    probe.destroy();
    return { client: new S3Client({ ...options, endpoint, forcePathStyle: true }), location: { ...bucket, endpoint } };
  }
  const region = await probe.config.region().catch(() => undefined);
  return { client: probe, location: region ? { ...bucket, region } : { ...bucket } };
}
