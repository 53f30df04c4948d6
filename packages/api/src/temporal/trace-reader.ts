import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { LRUCache } from 'lru-cache';
import { rootTraceObjectKey, traceObjectUrl, type RemoteTraceLocation, type TraceDestinations, type TraceObjectRoot } from '@skein/names/traces';
import { readTraceFile } from './trace-file.js';
import { localTraceFile } from './trace-source.js';

/** Largest trace the API reads (bytes). */
export const MAX_TRACE_BYTES = 50 * 1024 * 1024;

/** How long the trace folders a catalog's workers advertise are cached, ms. */
const FOLDERS_TTL_MS = 5_000;

/** Most catalogs whose advertised folders are cached at once (any caller may name any catalog). */
const FOLDERS_MAX_CATALOGS = 1_000;

/** Most folders taken for one catalog (its document's, and those its build's lease lists for its live workers). */
const FOLDERS_MAX_PER_CATALOG = 20;

/**
 * The trace folders the live workers of a catalog's current build advertise, and, with `runBuildId`, those the live
 * workers of that build advertise: `[]` when neither is served (no running document, or its build's lease lapsed).
 * `CatalogCache.traceDirs` answers it.
 * @throws when the engine fails.
 */
export type AdvertisedTraceDirs = (catalog: string, runBuildId?: string | null) => Promise<string[]>;

/** A trace read from one destination. */
export interface TraceRead {
  source: 'local' | 'remote';
  location: string;
  data: unknown;
}

/**
 * The run whose trace is read: its ids, its root's ids, its catalog, the build the engine records for it (null when
 * unversioned), and the destinations its memo names.
 */
export interface TraceRun {
  workflowId: string;
  runId: string;
  root: { workflowId: string; runId: string };
  taskQueue: string;
  buildId?: string | null;
  destinations: TraceDestinations;
}

/**
 * The root run's facts its trace object's key is derived from: workflow type, id, start (epoch ms of its
 * `WorkflowExecutionStarted` event) and, for a run made by a reset, run id (`runStart`); read from the engine only
 * when a remote destination is to be read.
 * @throws when the engine cannot answer.
 */
export type RootFacts = () => Promise<TraceObjectRoot>;

/**
 * Reads runs' traces for `trace-log`: the remote destination first (the S3 object, through the AWS SDK with its
 * standard region, endpoint and credential settings), then the local file, each only when it is the one derived
 * from the run's own root (see `trace-source.ts`). Local files are read from `SKEIN_TRACE_DIR` when set and from
 * the folders the live workers of the run's catalog's current build, and of the run's own build, advertise, never
 * from a folder a closed or unserved document names; each file through `readTraceFile` (no FIFO, hard link or
 * oversized file, bounded by the request's abort signal).
 */
export class TraceReader {
  readonly #dir: string | null;
  readonly #advertisedBy: AdvertisedTraceDirs;
  readonly #s3: Promise<{ client: S3Client; location: RemoteTraceLocation }> | null;
  /**
   * Advertised folders per catalog and run build, each kept {@link FOLDERS_TTL_MS}; bounded, since any caller may
   * name any catalog.
   */
  readonly #folders = new LRUCache<string, { dirs: Promise<string[]> }>({ max: FOLDERS_MAX_CATALOGS, ttl: FOLDERS_TTL_MS });

  /**
   * @param advertised the folders a catalog's current build advertises (`CatalogCache.traceDirs`).
   * @param config `traceDir`: an extra local folder (null = only advertised ones); `traceS3`: the bucket and prefix.
   *   The S3 client takes region, credentials and endpoint from the AWS SDK's own settings (environment, profile
   *   and its `endpoint_url` or `services` section); a custom endpoint, however it was set, is addressed path-style.
   */
  constructor(advertised: AdvertisedTraceDirs, config: { traceDir: string | null; traceS3: { bucket: string; prefix: string } | null }) {
    this.#advertisedBy = advertised;
    this.#dir = config.traceDir;
    this.#s3 = config.traceS3 ? traceBucketClient(config.traceS3) : null;
    // A settings error is reported when a trace is read (a 404 naming the remote destination's reason).
    this.#s3?.catch(() => {});
  }

  /**
   * The run's trace, or why none could be read (one reason per destination tried).
   * @param rootFacts the root run's type and start, asked only when a remote destination is read.
   * @param signal aborts the reads (the request went away or its deadline passed).
   */
  async read(run: TraceRun, rootFacts: RootFacts, signal: AbortSignal): Promise<TraceRead | { failures: string[] }> {
    const failures: string[] = [];
    const { remote, local } = run.destinations;
    if (remote) {
      try {
        return { source: 'remote', ...(await this.#readRemote(remote, rootFacts, signal)) };
      } catch (err) {
        failures.push(`remote ${remote}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (local) {
      try {
        return { source: 'local', ...(await this.#readLocal(run, local, signal)) };
      } catch (err) {
        failures.push(`local ${local}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (!remote && !local) failures.push('the run names no trace destination');
    return { failures };
  }

  /** The root's own object (its URL and content), when `url` names this bucket under this prefix. */
  async #readRemote(url: string, rootFacts: RootFacts, signal: AbortSignal): Promise<{ location: string; data: unknown }> {
    if (!this.#s3) throw new Error('no S3 destination is configured (SKEIN_TRACE_S3_BUCKET)');
    const { client, location } = await this.#s3;
    const key = rootTraceObjectKey(location, url, await rootFacts());
    if (!key) throw new Error(`not an object in bucket "${location.bucket}" under prefix "${location.prefix}"`);
    const res = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }), { abortSignal: signal });
    if (res.ContentLength === undefined || res.ContentLength > MAX_TRACE_BYTES) {
      // In Node the body is the response stream: destroyed, its bytes are never read.
      (res.Body as { destroy?: () => void } | undefined)?.destroy?.();
      throw new Error(`trace object of ${res.ContentLength ?? 'unknown'} bytes, over the ${MAX_TRACE_BYTES}-byte limit`);
    }
    const text = await res.Body!.transformToString();
    return { location: traceObjectUrl(location, key), data: JSON.parse(text) as unknown };
  }

  /** The root's own trace file in a folder this API may read (the memo's `named` folder first): its path and content. */
  async #readLocal(run: TraceRun, named: string, signal: AbortSignal): Promise<{ location: string; data: unknown }> {
    const dirs = [...(this.#dir ? [this.#dir] : []), ...(await this.#advertised(run.taskQueue, run.buildId ?? null))];
    const file = await localTraceFile(dirs, run.root, named);
    if (!file) throw new Error(`no trace file of this run in a trace folder of catalog "${run.taskQueue}" (${dirs.join(', ') || 'none advertised'})`);
    return { location: file, data: JSON.parse(await readTraceFile(file, MAX_TRACE_BYTES, signal)) as unknown };
  }

  /**
   * The trace folders the live workers of the catalog's current build, and of the run's build, advertise: absolute,
   * normalized paths only, at most {@link FOLDERS_MAX_PER_CATALOG}; none when the engine cannot say (the read then
   * fails as "no folder").
   */
  #advertised(catalog: string, runBuildId: string | null): Promise<string[]> {
    const key = `${catalog}\0${runBuildId ?? ''}`;
    const hit = this.#folders.get(key);
    if (hit) return hit.dirs;
    const dirs = this.#advertisedBy(catalog, runBuildId).then(
      (listed) => listed.filter((d) => path.isAbsolute(d) && path.normalize(d) === d).slice(0, FOLDERS_MAX_PER_CATALOG),
      () => [] as string[],
    );
    const entry = { dirs };
    this.#folders.set(key, entry);
    // Only a served catalog's answer is kept: a build that has just become current is seen by the next request.
    void dirs.then((found) => found.length === 0 && this.#folders.get(key) === entry && this.#folders.delete(key));
    return dirs;
  }
}

/**
 * The S3 client that reads the trace bucket, and where the bucket is: the custom endpoint the AWS SDK resolves
 * from its settings (read through the client's own resolver: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the
 * profile's `services` section or `endpoint_url`), else its region.
 * @throws when the SDK cannot read its settings.
 */
async function traceBucketClient(bucket: { bucket: string; prefix: string }): Promise<{ client: S3Client; location: RemoteTraceLocation }> {
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
