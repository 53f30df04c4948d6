/**
 * A worker's part in its build's rollout, once it polls: keep the build's liveness lease, record the build's
 * catalog document, make the build current when it is new (unless promotion is manual), publish the catalog and
 * sync its declared schedules when the build is current, and optionally stop once the build is drained; at a clean stop, retire what no other worker
 * still needs.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { dropVersionCatalog, publishCatalog, recordVersionCatalog, type CatalogDocument } from '../catalog.js';
import { retireCatalog } from '../catalog-ownership.js';
import { describeDeployment, promoteWhenReady } from './deployment.js';
import { watchDrainage } from './drain-watch.js';
import { keepLease, type LeaseKeeper } from './lease.js';
import { syncDeclaredSchedules } from './schedules.js';

/** Which build a worker serves, and how it joins its deployment. */
export interface RolloutTarget {
  catalog: string;
  /** Temporal identity of the worker. */
  identity: string;
  deployment: { name: string; buildId: string };
  /** The document the build serves (with its `deployment`). */
  doc: CatalogDocument;
  promote: 'auto' | 'manual';
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
}

/**
 * Joins the deployment (see the module comment). Call once the worker polls.
 * @throws the engine's error, or Error when Temporal does not list the build in time; whatever was set up is ended first.
 */
export async function joinDeployment(client: Client, target: RolloutTarget, logger: Logger): Promise<DeploymentMembership> {
  const { catalog, deployment, identity } = target;
  let lease: LeaseKeeper | undefined;
  let stopDrainWatch: (() => void) | undefined;
  const membership: DeploymentMembership = {
    async leave(clean) {
      stopDrainWatch?.();
      // A clean stop leaves nothing Running that pretends the catalog (or this build) is served, unless another worker still serves it.
      const retired = clean ? await retireCatalog(client, catalog, identity, deployment.buildId) : { catalog: false, lastOfBuild: false };
      if (retired.catalog) logger.info({ catalog }, 'catalog retired: no other worker serves it');
      await lease?.stop({ release: retired.lastOfBuild });
      if (retired.lastOfBuild) await dropVersionCatalog(client, catalog, deployment.buildId);
    },
  };
  try {
    // The lease and the build's catalog record are independent: one round trip to the engine instead of two.
    const [leased, recorded] = await Promise.allSettled([
      keepLease(client, catalog, deployment.buildId, (err) => logger.warn({ err }, 'liveness lease not renewed; retrying')),
      recordVersionCatalog(client, target.doc),
    ]);
    if (leased.status === 'fulfilled') lease = leased.value;
    if (recorded.status === 'rejected') throw recorded.reason;
    let current = false;
    if (target.promote === 'auto') {
      // A failed promotion leaves the worker serving its build's pinned runs (never a crash loop): an operator promotes it.
      const outcome = await promoteWhenReady(client, { ...deployment, identity }).catch((err: unknown) => {
        logger.error(
          { err, deployment },
          `could not make build ${deployment.buildId} current (${(err as Error).message}); promote it with: skein deploy promote ${deployment.buildId}`,
        );
        return 'failed' as const;
      });
      if (outcome === 'promoted') logger.info({ deployment }, `build ${deployment.buildId} is now the current version of deployment "${deployment.name}"`);
      if (outcome === 'left-as-is') {
        logger.warn({ deployment }, `build ${deployment.buildId} served before and was replaced: left as it is (skein deploy promote makes it current again)`);
      }
      // The engine's answer decides, not a describe read right after it (the routing may not show the change yet).
      current = outcome === 'promoted' || outcome === 'already-current';
    }
    if (!current) current = (await describeDeployment(client, deployment.name))?.current === deployment.buildId;
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
    await membership.leave(true);
    throw err;
  }
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
