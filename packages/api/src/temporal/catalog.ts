/**
 * Which workflows a catalog serves, and whether it is served at all, from the engine itself
 * (`CatalogNotAvailableError` when it is not; docs/api.md "Catalogs"): the document of the current build, whose head
 * is published in the memo of the running `$catalog:<catalog>` execution and whose workflows the build's record
 * `$catalog:<catalog>@<buildId>` holds, the liveness lease of that build (`$lease:<catalog>@<buildId>`, renewed by
 * its live workers every few seconds), and the workers polling the catalog's task queue (`DescribeTaskQueue`).
 */
import {
  CATALOG_LEASE_TRACE_DIR_TTL_MS,
  CATALOG_LEASE_TRACE_DIRS_MEMO_KEY,
  CATALOG_VERSION_WORKFLOW_TYPE,
  CATALOG_WORKFLOW_TYPE,
  catalogLeaseWorkflowId,
  catalogVersionWorkflowId,
  catalogWorkflowId,
  isLiveLease,
  RECORDS_TASK_QUEUE,
} from '@skein/names';
import { LRUCache } from 'lru-cache';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ApiError } from '../errors.js';
import type { ApiMetrics } from '../metrics/registry.js';
import { GRPC, grpcCode } from './engine.js';
import { temporal } from './proto.js';
import { waitCloseEvent } from './runs.js';

/**
 * A poller counts as live when the engine saw it poll within this many ms (the worker's rule too,
 * `@skein/worker` `LIVE_POLLER_WINDOW_MS`): an idle worker re-polls at least every minute, so a crashed
 * worker's catalog stays available for up to 70 s. A cleanly stopped worker retires its catalog at once.
 */
export const LIVE_POLLER_WINDOW_MS = 70_000;

/**
 * How many document versions' workflows the API keeps (each at most the worker's memo budget, 1.5 MB; about 0.8 MB
 * for 1,000 workflows with their schemas): a rollout has two or three versions, and rollbacks find theirs kept.
 */
export const SERVED_VERSIONS_KEPT = 8;

/** Seconds a client should wait before retrying a run on a catalog with no live worker (`Retry-After`). */
export const CATALOG_RETRY_AFTER_S = 5;

/** One activity of a catalog entry. */
export interface CatalogActivity {
  name: string;
  kind: 'step' | 'evaluator';
  shared: boolean;
  type: string;
}

/** One workflow a worker registered. */
export interface CatalogWorkflow {
  name: string;
  aliases: string[];
  description: string | null;
  inputSchema: object | null;
  outputSchema: object | null;
  activities: CatalogActivity[];
  /** The schedules the workflow declares in code (`workflow({ schedules })`); each runs as schedule `<catalog>:<workflow>:<id>`. */
  schedules: CatalogSchedule[];
}

/** A schedule a workflow declares, as its catalog document lists it. */
export interface CatalogSchedule {
  id: string;
  cron?: string[];
  every?: string;
  timezone?: string;
  input: unknown;
}

/** A shared activity: every workflow of the catalog may call it as `<workflow>#<name>`. */
export interface CatalogSharedActivity {
  name: string;
  kind: 'step' | 'evaluator';
  /** The package that provides it, or null for the project's own. */
  package: string | null;
}

/** A worker polling a catalog: its Temporal identity and when it last polled (epoch ms). */
export interface CatalogWorker {
  identity: string;
  lastPollAt: number;
}

/** What `GET /workflow/catalog/{catalog}` answers: the served document and the live workers. */
export interface CatalogDocument {
  catalog: string;
  /** Hash of what the publishing worker serves (SHA-256 hex; null for a worker of an older release). */
  version: string | null;
  /** The current build serving it (Worker Versioning): deployment name and build ID; null for a worker of an older release. */
  deployment: { name: string; buildId: string } | null;
  publishedAt: number;
  /** Each workflow lists its own steps and evaluators; shared activities are listed once, below. */
  workflows: CatalogWorkflow[];
  sharedActivities: CatalogSharedActivity[];
  /** Workers polling the catalog within {@link LIVE_POLLER_WINDOW_MS}. */
  workers: CatalogWorker[];
}

/** One running catalog and whether it is live (runs are accepted there now: see `CatalogCache.list`). */
export interface CatalogSummary {
  catalog: string;
  live: boolean;
  version: string | null;
}

interface VersionEntry {
  version?: string;
  identity?: string;
  workflows?: unknown;
  sharedActivities?: unknown;
}

/**
 * The memo document as a worker publishes it (`@skein/worker` `CatalogDocument`): in `$catalog`, the head of a build's
 * document (no `workflows`; `@skein/worker` `CatalogHead`) or, from a worker of an older release, the whole document;
 * in the build's record, the whole document.
 */
interface PublishedDocument extends VersionEntry {
  catalog?: string;
  publishedAt?: number;
  deployment?: { name?: unknown; buildId?: unknown };
}

/** What a document serves: its workflows and shared activities, as a build's record holds them. */
interface ServedContent {
  workflows: unknown[];
  sharedActivities: unknown;
}

interface DocEntry {
  promise: Promise<{ runId: string; startedAt: number; doc: PublishedDocument } | undefined>;
  at: number;
}

const ms = (t: { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined): number =>
  t ? Number(typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : 0;

const asArray = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

function workflowView(w: Partial<CatalogWorkflow>): CatalogWorkflow {
  return {
    name: String(w.name),
    aliases: asArray<string>(w.aliases),
    description: w.description ?? null,
    inputSchema: w.inputSchema ?? null,
    outputSchema: w.outputSchema ?? null,
    activities: asArray<CatalogActivity>(w.activities),
    schedules: asArray<CatalogSchedule>(w.schedules),
  };
}

/** A kept answer: the promise of an engine read, shared by the requests that come while it is kept. */
interface KeptAnswer<T> {
  promise: Promise<T>;
}

/**
 * The answer kept in `cache` under `key`, else a new read by `load`, kept only while `keep` holds for it (a failed
 * read is dropped too): a refusal is asked again by the next request, so a worker that has just started is seen at
 * once. `cache` undefined: nothing is kept.
 * @returns the answer's promise, and whether it came from the cache.
 */
function keptAnswer<T>(
  cache: LRUCache<string, KeptAnswer<T>> | undefined,
  key: string,
  load: () => Promise<T>,
  keep: (answer: T) => boolean,
): { promise: Promise<T>; hit: boolean } {
  const hit = cache?.get(key);
  if (hit) return { promise: hit.promise, hit: true };
  const entry: KeptAnswer<T> = { promise: load() };
  cache?.set(key, entry);
  const forget = () => {
    if (cache?.get(key) === entry) cache.delete(key);
  };
  entry.promise.then((answer) => !keep(answer) && forget(), forget);
  return { promise: entry.promise, hit: false };
}

/**
 * Answers "is catalog X served, and which workflows does it serve", with few engine calls:
 * - the published document is read once (`DescribeWorkflowExecution` of `$catalog:<catalog>`) and kept until
 *   that execution closes (a worker retired it or a newer one replaced it), which a background long-poll on
 *   its close event reports at once; at most 10 minutes;
 * - what a document serves (its workflows) is read from its build's record once per catalog and `version` (the hash
 *   of exactly that content) and kept (the last `SERVED_VERSIONS_KEPT`): a worker's restart, or a new build with the
 *   same workflows, costs one read of the small head. Never across catalogs: a record written in another catalog (by
 *   any client of the namespace) cannot change what this one serves;
 * - the live workers (`DescribeTaskQueue` pollers) and a build's running lease are cached for `ttlMs`
 *   (`SKEIN_CATALOG_CACHE_MS`, 2 000); an answer that nobody serves is not cached, so a worker that has just
 *   started is seen by the next request.
 * So `POST /workflow/start` on a warm catalog costs one engine call: the start itself.
 */
export class CatalogCache {
  readonly #client: Client;
  readonly #signal: AbortSignal | undefined;
  readonly #docs = new Map<string, DocEntry>();
  /** What each document version serves (read from a build's record), by catalog and `version`. */
  readonly #served = new LRUCache<string, KeptAnswer<ServedContent | undefined>>({ max: SERVED_VERSIONS_KEPT });
  /** Poller liveness per catalog, each kept `ttlMs`; bounded, since any client may name any catalog. */
  readonly #live: LRUCache<string, KeptAnswer<CatalogWorker[]>> | undefined;
  /** Whether a build's lease runs, per `<catalog>@<buildId>`, each kept `ttlMs`; bounded likewise. */
  readonly #leases: LRUCache<string, KeptAnswer<boolean>> | undefined;
  readonly #metrics: ApiMetrics | undefined;

  /**
   * @param client the engine client.
   * @param ttlMs how long poller liveness is cached, ms.
   * @param signal aborted when the server closes: stops the background close watchers.
   * @param metrics counts each read answered by the cache or by the engine.
   */
  constructor(client: Client, ttlMs = 2_000, signal?: AbortSignal, metrics?: ApiMetrics) {
    this.#client = client;
    this.#live = ttlMs > 0 ? new LRUCache({ max: 1_000, ttl: ttlMs }) : undefined;
    this.#leases = ttlMs > 0 ? new LRUCache({ max: 1_000, ttl: ttlMs }) : undefined;
    this.#signal = signal;
    this.#metrics = metrics;
  }

  /**
   * The served document of `catalog`: the current build's workflows (runs pinned to older builds stay readable
   * and signalable by id); `fresh` re-reads the document. Only a running `$catalog` execution on the catalog's own
   * task queue publishes a document, and only a running `$lease` execution on the records task queue proves a live
   * build: an execution of any other type under those ids is ignored.
   * @throws ApiError `CatalogNotAvailableError` (404, `Retry-After`) when no `$catalog` execution runs, the current
   *   build's lease lapsed (its last worker died), or (a document without a build) no worker polls the catalog; `InternalError` when the engine fails.
   */
  async get(catalog: string, fresh = false): Promise<CatalogDocument> {
    const [loaded, workers] = await Promise.all([this.#document(catalog, fresh), this.workers(catalog)]);
    const deployment =
      typeof loaded?.doc.deployment?.buildId === 'string' && typeof loaded.doc.deployment.name === 'string'
        ? { name: loaded.doc.deployment.name, buildId: loaded.doc.deployment.buildId }
        : null;
    const notAvailable = (why: string) =>
      new ApiError('CatalogNotAvailableError', {
        message: `No worker serves catalog "${catalog}": ${why}`,
        headers: { 'Retry-After': String(CATALOG_RETRY_AFTER_S) },
      });
    if (!loaded) throw notAvailable('no worker has published it, or its last worker stopped');
    // A versioned build's liveness is its lease, which its workers hold before they publish the catalog, so a worker
    // that has just started is served at once (the engine lists a new poller only some moments after its first
    // poll). A document without a build (an older worker) falls back to the engine's poller list.
    if (deployment) {
      if (!(await this.#leaseAlive(catalog, deployment.buildId))) {
        throw notAvailable(`no live worker of its current build ${deployment.buildId} has renewed its lease in the last few seconds`);
      }
    } else if (workers.length === 0) throw notAvailable(`no worker has polled it in the last ${LIVE_POLLER_WINDOW_MS / 1000} s`);
    const { doc } = loaded;
    const workflows = asArray<Partial<CatalogWorkflow>>(doc.workflows).map(workflowView);
    const sharedActivities = asArray<CatalogSharedActivity>(doc.sharedActivities);
    return {
      catalog: typeof doc.catalog === 'string' ? doc.catalog : catalog,
      version: typeof doc.version === 'string' ? doc.version : null,
      deployment,
      publishedAt: typeof doc.publishedAt === 'number' ? doc.publishedAt : loaded.startedAt,
      workflows,
      sharedActivities,
      workers,
    };
  }

  /**
   * The local trace folders a run's trace may be read from: those of the catalog's current build (the one its
   * served document advertises, its publisher's; the document of the current build, from a running `$catalog`
   * execution whose build's lease a live worker renews: the checks of {@link get}; and those the build's lease lists
   * for its other live workers, which may write elsewhere: `#leaseTraceDirs`), and, with `runBuildId` (the build the
   * engine records for the run), those the lease of the run's own build lists while its workers live: a run pinned
   * to an earlier build is closed, and its trace written, by that build's workers. A closed document, one nobody
   * serves, or one that a newer document replaced while it was checked, names none, and then the current build's
   * lease is not read either.
   * Entries that are not strings are dropped; the caller decides which paths it trusts.
   * @throws ApiError `InternalError` when the engine fails.
   */
  async traceDirs(catalog: string, runBuildId?: string | null): Promise<string[]> {
    const current = await this.#currentTraceDirs(catalog);
    // A run of the current build (the usual case) needs no second read of the same lease.
    const own = runBuildId && runBuildId !== current.buildId ? await this.#leaseTraceDirs(catalog, runBuildId) : [];
    return [...new Set([...current.dirs, ...own])];
  }

  /** The trace folders of the catalog's current build ({@link traceDirs}), and that build (when its lease was read). */
  async #currentTraceDirs(catalog: string): Promise<{ dirs: string[]; buildId?: string }> {
    let served: CatalogDocument;
    try {
      served = await this.get(catalog);
    } catch (err) {
      if (err instanceof ApiError && err.type === 'CatalogNotAvailableError') return { dirs: [] };
      throw err;
    }
    const loaded = await this.#document(catalog, false);
    const buildId = loaded?.doc.deployment?.buildId;
    if (!loaded || (served.deployment ? buildId !== served.deployment.buildId : buildId !== undefined)) return { dirs: [] };
    const listed = (loaded.doc as { traceDirs?: unknown }).traceDirs;
    const published = Array.isArray(listed) ? listed.filter((d): d is string => typeof d === 'string') : [];
    if (!served.deployment) return { dirs: published };
    // The document names its publisher's folder only; the build's lease lists every live worker's.
    const leased = await this.#leaseTraceDirs(catalog, served.deployment.buildId);
    return { dirs: [...new Set([...published, ...leased])], buildId: served.deployment.buildId };
  }

  /**
   * The trace folders the lease of build `buildId` lists (each live worker of the build writes its own there, see
   * `@skein/worker`'s lease): only from the lease itself (a running execution of the lease's type on the records task
   * queue), only entries written within `CATALOG_LEASE_TRACE_DIR_TTL_MS`; none when there is no such lease.
   * @throws ApiError `InternalError` when the engine fails.
   */
  async #leaseTraceDirs(catalog: string, buildId: string): Promise<string[]> {
    let d;
    try {
      d = await this.#client.workflow.getHandle(catalogLeaseWorkflowId(catalog, buildId)).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) return [];
      throw new ApiError('InternalError', { cause: err });
    }
    if (!isLiveLease(d)) return [];
    const entries: unknown = d.memo?.[CATALOG_LEASE_TRACE_DIRS_MEMO_KEY];
    if (!Array.isArray(entries)) return [];
    const now = Date.now();
    const fresh = (e: unknown): e is { dir: string; at: number } => {
      const entry = e as { dir?: unknown; at?: unknown } | null;
      return typeof entry?.dir === 'string' && typeof entry.at === 'number' && Math.abs(now - entry.at) <= CATALOG_LEASE_TRACE_DIR_TTL_MS;
    };
    return (entries as unknown[]).filter(fresh).map((e) => e.dir);
  }

  /**
   * Resolves a workflow name or alias to the catalog's entry; on a miss the document is re-read once so a worker
   * that has just started is seen.
   * @throws ApiError `UnsupportedWorkflowError` (404) when neither the name nor an alias is registered;
   *   `CatalogNotAvailableError` (404) when the catalog is not served.
   */
  async resolve(catalog: string, workflowName: string): Promise<CatalogWorkflow> {
    const find = (doc: CatalogDocument) => doc.workflows.find((w) => w.name === workflowName) ?? doc.workflows.find((w) => w.aliases.includes(workflowName));
    const found = find(await this.get(catalog));
    if (found) return found;
    const again = find(await this.get(catalog, true));
    if (again) return again;
    throw new ApiError('UnsupportedWorkflowError', {
      message: `Workflow "${workflowName}" is not registered in catalog "${catalog}"`,
    });
  }

  /**
   * The workers polling `catalog`'s workflow task queue within {@link LIVE_POLLER_WINDOW_MS}; a non-empty answer is
   * cached `ttlMs`, an empty one is not.
   * @throws ApiError `InternalError` when the engine fails.
   */
  async workers(catalog: string): Promise<CatalogWorker[]> {
    const load = () =>
      this.#client.workflowService
        .describeTaskQueue({
          namespace: this.#client.options.namespace,
          taskQueue: { name: catalog, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        })
        .then(
          (res) => {
            const now = Date.now();
            return (res.pollers ?? [])
              .map((p) => ({ identity: p.identity ?? '', lastPollAt: ms(p.lastAccessTime as never) }))
              .filter((p) => now - p.lastPollAt <= LIVE_POLLER_WINDOW_MS)
              .sort((a, b) => b.lastPollAt - a.lastPollAt);
          },
          (err: unknown) => {
            // A name the engine refuses as a task queue cannot be served by anyone.
            if (grpcCode(err) === GRPC.INVALID_ARGUMENT) return [];
            throw new ApiError('InternalError', { cause: err });
          },
        );
    // Only a live answer is kept: a worker that has just started is seen by the next request, not `ttlMs` later.
    const { promise, hit } = keptAnswer(this.#live, catalog, load, (workers) => workers.length > 0);
    this.#metrics?.catalogLookup('pollers', hit ? 'cache' : 'engine');
    return promise;
  }

  /**
   * Every catalog with a running `$catalog` execution (at most 100, from the engine's visibility store) and
   * whether it is live, by the evidence {@link get} accepts runs on: a document naming its build is live while that
   * build's lease runs (so a worker that has just said "serving" counts before the engine lists its first poll), one
   * without a build while a worker polls the catalog. An engine failure on one catalog's evidence makes it not live.
   * @throws ApiError `InternalError` when the engine fails to list the catalogs.
   */
  async list(): Promise<CatalogSummary[]> {
    const found: Array<{ catalog: string; version: string | null; buildId: string | null }> = [];
    try {
      const query = `WorkflowType = '${CATALOG_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running'`;
      for await (const wf of this.#client.workflow.list({ query, pageSize: 100 })) {
        const doc = wf.memo?.catalog as PublishedDocument | undefined;
        const buildId = typeof doc?.deployment?.buildId === 'string' ? doc.deployment.buildId : null;
        found.push({ catalog: wf.taskQueue, version: typeof doc?.version === 'string' ? doc.version : null, buildId });
        if (found.length >= 100) break;
      }
    } catch (err) {
      throw new ApiError('InternalError', { cause: err });
    }
    const live = await Promise.all(
      found.map((c) => (c.buildId !== null ? this.#leaseAlive(c.catalog, c.buildId) : this.workers(c.catalog).then((w) => w.length > 0)).catch(() => false)),
    );
    return found.map((c, i) => ({ catalog: c.catalog, live: live[i]!, version: c.version })).sort((a, b) => a.catalog.localeCompare(b.catalog));
  }

  /**
   * Whether the lease of build `buildId` runs (a live worker of the build renewed it within the lease's
   * lifetime); a running lease is cached `ttlMs`, a missing one is not.
   */
  #leaseAlive(catalog: string, buildId: string): Promise<boolean> {
    const load = () =>
      this.#client.workflow
        .getHandle(catalogLeaseWorkflowId(catalog, buildId))
        .describe()
        .then(
          (d) => isLiveLease(d),
          (err: unknown) => {
            if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) return false;
            throw new ApiError('InternalError', { cause: err });
          },
        );
    // Only a running lease is kept (as for pollers): a build whose first worker has just joined is seen at once.
    return keptAnswer(this.#leases, `${catalog}@${buildId}`, load, (alive) => alive).promise;
  }

  #document(catalog: string, fresh: boolean): DocEntry['promise'] {
    const now = Date.now();
    const hit = this.#docs.get(catalog);
    // A refresh that just happened is fresh enough.
    if (hit && (!fresh || now - hit.at < 50)) {
      this.#metrics?.catalogLookup('document', 'cache');
      return hit.promise;
    }
    this.#metrics?.catalogLookup('document', 'engine');
    const promise = this.#loadDocument(catalog);
    const entry: DocEntry = { at: now, promise };
    this.#docs.set(catalog, entry);
    const drop = () => {
      if (this.#docs.get(catalog) === entry) this.#docs.delete(catalog);
    };
    promise.then((loaded) => (loaded ? this.#watch(catalog, loaded.runId, drop) : drop()), drop);
    return promise;
  }

  /** Drops the cached document as soon as its `$catalog` execution closes (or after 10 minutes). */
  #watch(catalog: string, runId: string, drop: () => void): void {
    if (this.#signal?.aborted) return drop();
    waitCloseEvent(this.#client, catalogWorkflowId(catalog), runId, {
      deadline: Date.now() + 10 * 60_000,
      ...(this.#signal ? { signal: this.#signal } : {}),
    }).then(drop, drop);
  }

  async #loadDocument(catalog: string): Promise<{ runId: string; startedAt: number; doc: PublishedDocument } | undefined> {
    let description;
    try {
      description = await this.#client.workflow.getHandle(catalogWorkflowId(catalog)).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND || grpcCode(err) === GRPC.INVALID_ARGUMENT) return undefined;
      throw new ApiError('InternalError', { cause: err });
    }
    const doc = description.memo?.catalog as PublishedDocument | undefined;
    if (description.status.name !== 'RUNNING' || !doc || typeof doc !== 'object') return undefined;
    // Only the catalog record itself publishes: the registry's type on the catalog's own task queue, naming this catalog.
    if (description.type !== CATALOG_WORKFLOW_TYPE || description.taskQueue !== catalog) return undefined;
    if (doc.catalog !== undefined && doc.catalog !== catalog) return undefined;
    const found = { runId: description.runId, startedAt: description.startTime.getTime() };
    // A worker of an older release published the whole document.
    if (Array.isArray(doc.workflows)) return { ...found, doc };
    const served = await this.#servedContent(catalog, doc);
    return served ? { ...found, doc: { ...doc, ...served } } : undefined;
  }

  /**
   * What the document whose head is `head` serves: from its build's record (`$catalog:<catalog>@<buildId>`, the
   * records' type on the records task queue, naming the same catalog, build and version), kept by catalog and version.
   * @returns undefined when the head names no build or version, or no such record runs (its build's workers all
   *   stopped; a worker that still serves records it again within seconds).
   * @throws ApiError `InternalError` when the engine fails.
   */
  #servedContent(catalog: string, head: PublishedDocument): Promise<ServedContent | undefined> {
    const { version } = head;
    const buildId = head.deployment?.buildId;
    if (typeof version !== 'string' || typeof buildId !== 'string') return Promise.resolve(undefined);
    const load = () =>
      this.#client.workflow
        .getHandle(catalogVersionWorkflowId(catalog, buildId))
        .describe()
        .then(
          (d): ServedContent | undefined => {
            const doc = d.memo?.catalog as PublishedDocument | undefined;
            if (d.status.name !== 'RUNNING' || d.type !== CATALOG_VERSION_WORKFLOW_TYPE || d.taskQueue !== RECORDS_TASK_QUEUE) return undefined;
            if (!doc || doc.catalog !== catalog || doc.deployment?.buildId !== buildId || doc.version !== version || !Array.isArray(doc.workflows))
              return undefined;
            return { workflows: doc.workflows, sharedActivities: doc.sharedActivities };
          },
          (err: unknown) => {
            if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) return undefined;
            throw new ApiError('InternalError', { cause: err });
          },
        );
    // Only a found record is kept: a build whose record is being written again is read again by the next request.
    const { promise, hit } = keptAnswer(this.#served, `${catalog}\n${version}`, load, (served) => served !== undefined);
    this.#metrics?.catalogLookup('record', hit ? 'cache' : 'engine');
    return promise;
  }
}
