/**
 * A worker's part in its build's rollout, once it polls: keep the build's liveness lease, record the build's
 * catalog document and its project identity, make the build current when it is new and of the current version's
 * project (unless promotion is manual), publish the catalog and sync its declared schedules when the build is
 * current and keep it published while the worker serves, and optionally stop once the build is drained; at a clean
 * stop, retire what no other worker still needs. A worker of another project than the current version's does not
 * serve: it fails its start with `ProjectMismatchError`.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import pRetry from 'p-retry';
import { dropVersionCatalog, publishCatalog, recordVersionCatalog, type CatalogDocument } from './catalog.js';
import { retireCatalog } from './catalog-ownership.js';
import { describeDeployment, describeVersion, grpcCode, pollsOnly, promoteWhenReady, type DeploymentState, type PromoteOutcome } from './deployment.js';
import { watchDrainage } from './drain-watch.js';
import { keepLease, type LeaseKeeper } from './lease.js';
import { syncDeclaredSchedules } from './schedules.js';
import { ProjectMismatchError, projectOf, recordVersionProject } from './project-identity.js';
import { watchRecords } from './record-watch.js';

/** Which build a worker serves, and how it joins its deployment. */
export interface RolloutTarget {
  catalog: string;
  /** Temporal identity of the worker. */
  identity: string;
  deployment: { name: string; buildId: string };
  /** The document the build serves (with its `deployment`). */
  doc: CatalogDocument;
  promote: 'auto' | 'manual';
  /** The build's project identity (`resolveProjectIdentity`); undefined: no identity check and none recorded. */
  project?: string;
  /** Called once the build is drained and neither current nor ramping; omitted: the worker does not watch. */
  onDrained?: () => void;
}

/** A worker's membership of its deployment, ended by `leave`. */
export interface DeploymentMembership {
  /**
   * Ends it at a stop: a clean stop (`clean`) retires the catalog when no other live worker serves it, and ends
   * the build's lease and record when no other live worker of the build remains. Never throws.
   */
  leave(clean: boolean): Promise<void>;
  /**
   * How long (ms) the engine took to make this build the current version once asked (Temporal's
   * `SetWorkerDeploymentCurrentVersion`, retries while it had not registered the version included); null when this
   * worker did not promote it (already current, manual promotion, another build current, or a failed promotion).
   */
  readonly promoteMs: number | null;
}

/** gRPC codes of a version the engine has not registered yet (its worker's first poll is on its way). */
const NOT_YET = new Set([5, 9]);

/**
 * Records the build's project identity in its version's metadata, asked again (100 ms, then up to 1 s apart) while
 * the engine has not registered the version yet, for at most `timeoutMs`.
 * @throws the engine's last error when it never accepted the record.
 */
async function recordProjectWhenListed(client: Client, target: RolloutTarget & { project: string }, timeoutMs = 30_000): Promise<void> {
  await pRetry(() => recordVersionProject(client, target.deployment, target.project, target.identity), {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 100,
    maxTimeout: 1_000,
    factor: 1.5,
    maxRetryTime: timeoutMs,
    shouldRetry: ({ error }) => NOT_YET.has(grpcCode(error) ?? -1),
  });
}

/** What a worker reads of its deployment before it promotes its build (`ownership`). */
interface Ownership {
  state: DeploymentState | undefined;
  /** The current version, when it belongs to another project than the build's. */
  other?: { buildId: string; project: string };
  /**
   * Every task queue the current version polls is the build's catalog, which each Skein worker polls for workflow
   * and activity tasks (its built-in HTTP request activity is always registered): the build polls all of them,
   * so the engine need not check that before promoting it. False when unknown or when there is no current version.
   */
  sameTaskQueue: boolean;
}

/**
 * The deployment as it stands, and of its current version (when it is not the build) the project, when it is
 * another project than the build's (a build that records no identity, from an older Skein, counts as the same
 * project), and whether it polls only the build's catalog.
 * @throws the engine's error.
 */
async function ownership(client: Client, target: RolloutTarget): Promise<Ownership> {
  const state = await describeDeployment(client, target.deployment.name);
  const current = state?.current;
  if (!current || current === target.deployment.buildId) return { state, sameTaskQueue: false };
  const described = await describeVersion(client, { name: target.deployment.name, buildId: current });
  const sameTaskQueue = pollsOnly(described, target.catalog);
  const project = described && projectOf(described);
  return target.project && project && project !== target.project ? { state, other: { buildId: current, project }, sameTaskQueue } : { state, sameTaskQueue };
}

/** A join begun before the worker polls (`beginJoin`): completed once it polls, or abandoned. */
export interface DeploymentJoin {
  /**
   * Completes the join once the worker polls: the promotion (when the build is new and of the current version's
   * project), the served catalog, the record and drain watches.
   * @throws ProjectMismatchError when the current version belongs to another project (the build's lease and record
   *   are released first, its project identity is recorded once the engine registered the version, the catalog is
   *   left as it is); the engine's error (whatever was set up is ended first).
   */
  joined(): Promise<DeploymentMembership>;
  /** Ends what was set up, for a worker that failed before it polled (as a clean stop would). Never throws. */
  abandon(): Promise<void>;
}

/**
 * Joins the deployment (see the module comment) in one go. Call once the worker polls.
 * @throws as {@link DeploymentJoin.joined}.
 */
export async function joinDeployment(client: Client, target: RolloutTarget, logger: Logger): Promise<DeploymentMembership> {
  return beginJoin(client, target, logger).joined();
}

/**
 * Begins joining the deployment before the worker polls: the lease, the catalog record and the read of the
 * deployment (with the current version's project) go out at once, while the worker is being created, so that only
 * the promotion (one round trip once the first poll registered the version) and the publication remain after it.
 * Never throws: failures surface from `joined()`.
 */
export function beginJoin(client: Client, target: RolloutTarget, logger: Logger): DeploymentJoin {
  const { catalog, deployment, identity } = target;
  let lease: LeaseKeeper | undefined;
  let stopDrainWatch: (() => void) | undefined;
  /** Ends the watch of the catalog records (set once the worker serves). */
  const recordWatch: { stop?: () => void } = {};
  let promoteMs: number | null = null;
  const membership: DeploymentMembership = {
    get promoteMs() {
      return promoteMs;
    },
    async leave(clean) {
      stopDrainWatch?.();
      recordWatch.stop?.();
      // A clean stop leaves nothing Running that pretends the catalog (or this build) is served, unless another worker still serves it.
      const retired = clean ? await retireCatalog(client, catalog, identity, deployment.buildId) : { catalog: false, lastOfBuild: false };
      if (retired.catalog) logger.info({ catalog }, 'catalog retired: no other worker serves it');
      await lease?.stop({ release: retired.lastOfBuild });
      if (retired.lastOfBuild) await dropVersionCatalog(client, catalog, deployment.buildId);
    },
  };
  // Started together: none of them waits for another, nor for the worker.
  const leasing = keepLease(
    client,
    catalog,
    deployment.buildId,
    (err) => logger.warn({ err }, 'liveness lease not renewed; retrying'),
    target.doc.traceDirs?.[0] ?? null,
  );
  const recording = recordVersionCatalog(client, target.doc);
  const reading = ownership(client, target);
  leasing.then((l) => (lease = l)).catch(() => {});
  recording.catch(() => {});
  reading.catch(() => {});
  return {
    abandon: async () => {
      await Promise.allSettled([leasing, recording]);
      await membership.leave(true);
    },
    joined: () => completeJoin(),
  };

  async function completeJoin(): Promise<DeploymentMembership> {
    try {
      const { state, other, sameTaskQueue } = await reading;
      if (other) {
        // Not this catalog's project: release what was set up for it, keep the engine's record of whose build this is
        // (so that an operator can hand the catalog over by build ID), and never touch the catalog itself.
        await Promise.allSettled([leasing, recording]);
        await recordProjectWhenListed(client, target as RolloutTarget & { project: string }, 10_000).catch((err: unknown) =>
          logger.warn({ err }, "could not record the build's project identity"),
        );
        await lease?.stop({ release: true });
        await dropVersionCatalog(client, catalog, deployment.buildId);
        throw new ProjectMismatchError({
          catalog,
          project: target.project!,
          currentProject: other.project,
          currentBuildId: other.buildId,
          buildId: deployment.buildId,
        });
      }
      // In the background: the engine accepts it once the first poll registered the version; nothing waits for it.
      if (target.project)
        void recordProjectWhenListed(client, target as RolloutTarget & { project: string }).catch((err: unknown) =>
          logger.warn({ err }, "could not record the build's project identity; skein deploy status shows none for it"),
        );
      let current = state?.current === deployment.buildId;
      if (!current && target.promote === 'auto') {
        // A failed promotion leaves the worker serving its build's pinned runs (never a crash loop): an operator promotes it.
        const asked = performance.now();
        const outcome: PromoteOutcome | 'failed' = await promoteWhenReady(client, { ...deployment, identity }, { state, sameTaskQueue }).catch(
          (err: unknown) => {
            logger.error(
              { err, deployment },
              `could not make build ${deployment.buildId} current (${(err as Error).message}); promote it with: skein deploy promote ${deployment.buildId}`,
            );
            return 'failed' as const;
          },
        );
        if (outcome === 'promoted') {
          promoteMs = Math.round(performance.now() - asked);
          logger.info({ deployment, promoteMs }, `build ${deployment.buildId} is now the current version of deployment "${deployment.name}"`);
        }
        if (outcome === 'left-as-is') {
          logger.warn(
            { deployment },
            `build ${deployment.buildId} served before and was replaced: left as it is (skein deploy promote makes it current again)`,
          );
        }
        // The engine's answer decides, not a describe read right after it (the routing may not show the change yet).
        current = outcome === 'promoted' || outcome === 'already-current';
      }
      const [leased, recorded] = await Promise.allSettled([leasing, recording]);
      if (leased.status === 'fulfilled') lease = leased.value;
      if (recorded.status === 'rejected') throw recorded.reason;
      if (current) {
        await publishCatalog(client, target.doc);
        // A schedule that could not be synced now is synced by the next publication; the build serves meanwhile.
        await syncDeclaredSchedules(client, target.doc).then(
          (report) => {
            if (report.created.length + report.updated.length + report.deleted.length > 0) logger.info({ schedules: report }, 'declared schedules synced');
            for (const id of report.kept) logger.warn({ scheduleId: id }, `schedule "${id}" exists and was not declared in code: left as it is`);
          },
          (err: unknown) => logger.warn({ err }, 'declared schedules not synced; the next publication of the catalog retries'),
        );
      } else logger.info({ deployment }, `build ${deployment.buildId} is not the current version: its catalog is published when it is promoted`);
    } catch (err) {
      if (err instanceof ProjectMismatchError) throw err;
      await Promise.allSettled([leasing]);
      await membership.leave(true);
      throw err;
    }
    recordWatch.stop = watchRecords(client, { catalog, deployment, doc: target.doc }, logger);
    if (target.onDrained) {
      const onDrained = target.onDrained;
      stopDrainWatch = watchDrainage(client, deployment, {
        onDrained: () => {
          logger.info({ deployment }, `build ${deployment.buildId} is drained and no longer current: stopping`);
          onDrained();
        },
        onError: (err) => logger.warn({ err }, 'drainage check failed; retrying'),
      });
    }
    return membership;
  }
}
