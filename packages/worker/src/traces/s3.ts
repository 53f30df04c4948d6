import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { rootTraceObjectKey, type RemoteTraceLocation } from '@skein/names/traces';
import type { Logger } from 'pino';
import { reportTraceExport } from './outcome.js';
import { STALE_CLAIM_MS, TraceSpool, type SpoolClaim, type SpooledTrace } from './spool.js';
import type { TraceExporter, TraceFile } from './types.js';

/** Retry timing of uploads, ms. */
export interface UploadBackoff {
  /** First wait after a failed upload (default 1 000). */
  initialMs: number;
  /** Longest wait between tries (default 10 000). */
  maxMs: number;
  /** A trace still not uploaded this long after it was spooled is given up on (default 24 h). */
  giveUpAfterMs: number;
  /** Another worker's claim of a spooled trace older than this is taken back and sent (default 60 000). */
  staleClaimMs: number;
}

/** Traces larger than this (bytes) are uploaded in parts. */
const MULTIPART_FROM_BYTES = 5 * 1024 * 1024;

const DEFAULT_BACKOFF: UploadBackoff = { initialMs: 1_000, maxMs: 10_000, giveUpAfterMs: 24 * 3_600_000, staleClaimMs: STALE_CLAIM_MS };

/**
 * The S3 client of the trace destination: region, credentials and endpoint from the AWS SDK's own settings
 * (`AWS_REGION`, `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE` and the shared config and credentials
 * files, instance roles; the endpoint from `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, or the profile's
 * `endpoint_url` or `services` section, as the SDK resolves them). A custom endpoint, however it was set, is
 * addressed path-style (an S3-compatible store rarely serves `<bucket>.<host>`). Connections time out after 3 s
 * and requests after 30 s, so a hung storage never holds an upload forever.
 * @returns the client and the custom endpoint (undefined on AWS itself).
 * @throws when the SDK cannot read its settings.
 */
export async function traceS3Client(): Promise<{ client: S3Client; endpoint: string | undefined }> {
  const options = { maxAttempts: 1, requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 } };
  const client = new S3Client(options);
  const endpoint = await configuredS3Endpoint(client);
  if (!endpoint) return { client, endpoint };
  client.destroy();
  return { client: new S3Client({ ...options, endpoint, forcePathStyle: true }), endpoint };
}

/**
 * The custom endpoint the AWS SDK resolves for S3 from its settings (environment, then the profile's
 * `services` section and `endpoint_url`; none when `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS` is set), read through
 * the client's own resolver so that it is exactly the endpoint the SDK would send requests to.
 * @throws when the SDK cannot read its settings.
 */
export async function configuredS3Endpoint(client: S3Client): Promise<string | undefined> {
  const resolve = (client.config as { serviceConfiguredEndpoint?: () => Promise<string | undefined> }).serviceConfiguredEndpoint;
  return (await resolve?.())?.trim() || undefined;
}

/** True for a refusal that another try cannot change (credentials, permissions, no such bucket, bad request). */
function isPermanent(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

const reasonOf = (err: unknown): string => {
  const e = err as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  return [e.name ?? 'Error', status ? `HTTP ${status}` : e.code, e.message].filter(Boolean).join(': ').split('\n')[0]!;
};

/**
 * The S3 trace destination: uploads each root run's trace to its own object in this bucket under this prefix
 * (when its memo's `trace.destinations.remote` names this bucket), multipart for large traces (`@aws-sdk/lib-storage`).
 * A run never waits for it: the trace is first spooled on local disk ({@link TraceSpool}), then one sender per
 * worker uploads the spool in order. A failed upload is retried with exponential backoff (storage down, slow, 5xx),
 * also after a worker restart; a refusal (wrong credentials, no such bucket) or a trace older than `giveUpAfterMs`
 * is given up on, logged once for its run with the reason. Outcomes go to the `skein:trace-export` channel.
 */
export class S3TraceExporter implements TraceExporter {
  readonly name = 's3';
  private readonly spool: TraceSpool;
  private readonly backoff: UploadBackoff;
  private sending = false;
  private again = false;
  private delayMs: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private current: Promise<void> | undefined;
  /** The claim whose upload is under way: handed back by {@link stop} when the upload does not end in time. */
  private inFlight: SpoolClaim | undefined;
  /** Set while a scan is due for claims of other workers that were not stale yet. */
  private rescan: NodeJS.Timeout | undefined;
  /** Traces this worker spooled and has not tried yet. */
  private readonly fresh: Array<{ file: string; item: SpooledTrace }> = [];
  /** Whether the next pass reads the whole spool folder (at start, and after a failure). */
  private scan = true;

  /**
   * @param location bucket, prefix and addressing (as the workflow bundle publishes object URLs).
   * @param client the S3 client ({@link traceS3Client}).
   * @param spoolDir the folder traces wait in.
   */
  constructor(
    readonly location: RemoteTraceLocation,
    private readonly client: S3Client,
    spoolDir: string,
    private readonly logger: Logger,
    backoff: Partial<UploadBackoff> = {},
  ) {
    this.backoff = { ...DEFAULT_BACKOFF, ...backoff };
    this.spool = new TraceSpool(spoolDir, `${process.pid}-${randomUUID().slice(0, 8)}`, this.backoff.staleClaimMs);
    this.delayMs = this.backoff.initialMs;
  }

  /** Sends what an earlier worker left in the spool. */
  start(): void {
    this.kick(true);
  }

  /**
   * Stops sending: waits up to `waitMs` (default 5 000) for the upload in flight, then hands its trace back to the
   * spool. The spool keeps what is left for the next start.
   */
  async stop(waitMs = 5_000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.rescan);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.current, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    // An upload that did not end in time hands its trace back, so the next start sends it at once.
    const stuck = this.inFlight;
    this.inFlight = undefined;
    await stuck?.release();
  }

  /**
   * Spools the trace and sends it to the root run's own object: the key derived from its type, id and start as the
   * trace's root node holds them (its history's `WorkflowExecutionStarted` event), and its run id for a run made by
   * a reset. `destinations.remote` (the memo's URL) only says that the run's trace goes to this bucket; a URL
   * outside this bucket and prefix is refused (nothing written, a final failure reported).
   */
  async export(trace: TraceFile, destinations: { remote?: string }): Promise<void> {
    if (!destinations.remote) return;
    const at = { destination: 'remote' as const, workflowId: trace.root.workflowId, runId: trace.root.runId };
    const { name: workflowType, startedAt, originalRunId } = trace.tree;
    // Only this root's own object: a memo (which anyone with engine access can write) never redirects an upload
    // onto another run's trace, not even onto another run of the same workflow id or the run a reset started from.
    const key =
      typeof workflowType === 'string' && typeof startedAt === 'number'
        ? rootTraceObjectKey(this.location, destinations.remote, {
            workflowType,
            workflowId: trace.root.workflowId,
            startedAt,
            runId: originalRunId ? trace.root.runId : undefined,
          })
        : undefined;
    if (!key) {
      this.logger.warn(
        { ...at, remote: destinations.remote },
        'trace not uploaded: its memo names an object outside SKEIN_TRACE_S3_BUCKET/SKEIN_TRACE_S3_PREFIX',
      );
      reportTraceExport({ ...at, ok: false, final: true, reason: 'the memo names an object outside the configured bucket and prefix' });
      return;
    }
    const item: SpooledTrace = { key, workflowId: trace.root.workflowId, runId: trace.root.runId, spooledAt: Date.now(), body: JSON.stringify(trace) };
    this.fresh.push({ file: await this.spool.put(item), item });
    this.kick();
  }

  /** Starts sending now; while backing off after a failure, only the timer (`force`) starts it. */
  private kick(force = false): void {
    if (this.stopped) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    if (this.timer && !force) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.current = this.send();
  }

  /**
   * One sending pass: the traces this worker just spooled (held in memory), or, at start and after a failure, every
   * trace in the spool folder. On the first retryable failure, waits (backoff) and scans the folder again.
   */
  private async send(): Promise<void> {
    this.sending = true;
    let retryLater = false;
    try {
      do {
        this.again = false;
        if (this.scan) {
          this.scan = false;
          this.fresh.length = 0; // every one of them is in the folder too
          for await (const claim of this.spool.claims((file, err) => this.logger.warn({ file, err }, 'unreadable spooled trace dropped'))) {
            if (this.stopped || retryLater) await claim.release();
            else retryLater = !(await this.attempt(claim));
          }
          // Traces other workers claimed a moment ago: theirs unless they died; look again once such a claim is stale.
          if (this.spool.youngClaims > 0 && !this.rescan && !this.stopped) {
            this.rescan = setTimeout(() => {
              this.rescan = undefined;
              this.scan = true;
              this.kick(true);
            }, this.backoff.staleClaimMs + 1_000);
            this.rescan.unref();
          }
        }
        while (this.fresh.length > 0 && !this.stopped && !retryLater) {
          const { file, item } = this.fresh.shift()!;
          const claim = await this.spool.claim(file, item);
          if (claim) retryLater = !(await this.attempt(claim));
        }
      } while ((this.again || this.fresh.length > 0) && !retryLater && !this.stopped);
    } finally {
      this.sending = false;
    }
    if (retryLater && !this.stopped) {
      this.scan = true;
      this.timer = setTimeout(() => this.kick(true), this.delayMs);
      this.timer.unref();
      this.delayMs = Math.min(this.delayMs * 2, this.backoff.maxMs);
    }
  }

  /** Uploads one claimed trace. @returns false when the failure may pass (the trace goes back to the spool). */
  private async attempt(claim: SpoolClaim): Promise<boolean> {
    try {
      return await this.attemptClaimed(claim);
    } finally {
      if (this.inFlight === claim) this.inFlight = undefined;
    }
  }

  private async attemptClaimed(claim: SpoolClaim): Promise<boolean> {
    const { item } = claim;
    const at = { destination: 'remote' as const, workflowId: item.workflowId, runId: item.runId };
    this.inFlight = claim;
    try {
      await this.upload(item);
      if (this.inFlight !== claim) return true; // handed back by stop(): the next start sends it again
      await claim.done();
      this.delayMs = this.backoff.initialMs;
      reportTraceExport({ ...at, ok: true });
      return true;
    } catch (err) {
      const reason = reasonOf(err);
      const expired = Date.now() - item.spooledAt > this.backoff.giveUpAfterMs;
      if (isPermanent(err) || expired) {
        await claim.done();
        this.logger.error(
          { ...at, bucket: this.location.bucket, key: item.key, reason },
          `trace upload given up: ${expired && !isPermanent(err) ? `still failing after ${Math.round(this.backoff.giveUpAfterMs / 60_000)} min: ` : ''}${reason}`,
        );
        reportTraceExport({ ...at, ok: false, final: true, reason });
        return true;
      }
      await claim.release();
      reportTraceExport({ ...at, ok: false, final: false, reason });
      this.logger.debug({ ...at, reason, retryInMs: this.delayMs }, 'trace upload failed; retrying later');
      return false;
    }
  }

  /** One PUT for a trace up to 5 MiB; a multipart upload (`@aws-sdk/lib-storage`) beyond. */
  private async upload(item: SpooledTrace): Promise<void> {
    const params = { Bucket: this.location.bucket, Key: item.key, Body: item.body, ContentType: 'application/json' };
    if (Buffer.byteLength(item.body) <= MULTIPART_FROM_BYTES) await this.client.send(new PutObjectCommand(params));
    else await new Upload({ client: this.client, params }).done();
  }
}
