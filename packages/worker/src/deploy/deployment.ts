/**
 * Temporal's Worker Deployment RPCs as Skein uses them (through `@temporalio/client`'s `workflowService`): what
 * a deployment's versions are and which one is current or ramping, making a version current or ramping it,
 * and a new build's worker promoting itself. No native worker code: the `skein deploy` commands import this.
 */
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import protoModule from '@temporalio/proto';

/** `@temporalio/proto` is CommonJS: its namespace is read off the default export. */
const { temporal } = protoModule;
const VersionStatus = temporal.api.enums.v1.WorkerDeploymentVersionStatus;
const Drainage = temporal.api.enums.v1.VersionDrainageStatus;

/** gRPC status codes met here. */
const NOT_FOUND = 5;
/**
 * Answers worth asking again during a promotion: the version not listed yet or its task queue not registered yet
 * (NOT_FOUND, FAILED_PRECONDITION), a concurrent routing change by a replica (ABORTED), a busy or briefly
 * unreachable engine (RESOURCE_EXHAUSTED, UNAVAILABLE).
 */
const RETRYABLE = new Set([5, 8, 9, 10, 14]);

/** Where a version stands: Temporal's `WorkerDeploymentVersionStatus`, in lower case. */
export type VersionState = 'inactive' | 'current' | 'ramping' | 'draining' | 'drained' | 'created' | 'unknown';

/** One version (build) of a deployment. Times are epoch ms, or null when the engine has none. */
export interface DeploymentVersion {
  buildId: string;
  state: VersionState;
  /** Whether pinned runs still need this version: `draining` (some open), `drained` (none), null (never checked, or current/ramping). */
  drainage: 'draining' | 'drained' | null;
  createdAt: number | null;
  currentSince: number | null;
  rampingSince: number | null;
  /** When it first became current or ramping; null for a version that never served new runs. */
  firstActivatedAt: number | null;
  /** When it last stopped being current (a later build replaced it); null when it never was replaced. */
  lastCurrentAt: number | null;
}

/** A worker deployment as `describeDeployment` reads it. */
export interface DeploymentState {
  name: string;
  /** Build ID of the current version (where new runs go), or null. */
  current: string | null;
  /** The ramping version and the share of new runs (0–100 %) it gets, or null. */
  ramping: { buildId: string; percent: number } | null;
  /** Every version the engine knows, newest first. */
  versions: DeploymentVersion[];
}

type Timestamp = { seconds?: { toNumber(): number } | number | null; nanos?: number | null } | null | undefined;
const ms = (t: Timestamp): number | null =>
  t && (t.seconds || t.nanos)
    ? Number(typeof t.seconds === 'number' ? t.seconds : (t.seconds?.toNumber() ?? 0)) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)
    : null;

const STATES: Record<number, VersionState> = {
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_INACTIVE]: 'inactive',
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
  [VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CREATED]: 'created',
};

/** The gRPC status code of an engine error, if any. */
export function grpcCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * The deployment `name` with its versions and routing, or undefined when the engine knows no such deployment
 * (no versioned worker ever polled under it).
 * @throws the engine's error for anything but "not found".
 */
export async function describeDeployment(client: Client, name: string): Promise<DeploymentState | undefined> {
  let res;
  try {
    res = await client.workflowService.describeWorkerDeployment({ namespace: client.options.namespace, deploymentName: name });
  } catch (err) {
    if (grpcCode(err) === NOT_FOUND) return undefined;
    throw err;
  }
  return deploymentState(name, res.workerDeploymentInfo);
}

/** The engine's `WorkerDeploymentInfo`, as `DescribeWorkerDeployment` answers it. */
type WorkerDeploymentInfo = Awaited<ReturnType<Client['workflowService']['describeWorkerDeployment']>>['workerDeploymentInfo'];

/**
 * A deployment's state from the engine's description of it: current and ramping from its routing configuration,
 * each other version's state and drainage from its summary (a summary still calling a replaced version current is
 * read as draining, as the engine marks it a moment later). Pure.
 */
export function deploymentState(name: string, info: WorkerDeploymentInfo): DeploymentState {
  const routing = info?.routingConfig;
  const current = routing?.currentDeploymentVersion?.buildId || null;
  const rampingId = routing?.rampingDeploymentVersion?.buildId || null;
  const versions = (info?.versionSummaries ?? []).map((v): DeploymentVersion => {
    const buildId = v.deploymentVersion?.buildId ?? '';
    const drainage = v.drainageInfo?.status ?? v.drainageStatus;
    // The routing configuration decides what is current and ramping; a version's summary can lag behind it for a
    // moment after a promotion (the new current one still "draining", the old one still "current").
    const routed = buildId === current ? 'current' : buildId === rampingId ? 'ramping' : undefined;
    const summarized = STATES[v.status ?? 0] ?? 'unknown';
    return {
      buildId,
      state: routed ?? (summarized === 'current' || summarized === 'ramping' ? 'draining' : summarized),
      drainage: routed
        ? null
        : drainage === Drainage.VERSION_DRAINAGE_STATUS_DRAINING
          ? 'draining'
          : drainage === Drainage.VERSION_DRAINAGE_STATUS_DRAINED
            ? 'drained'
            : null,
      createdAt: ms(v.createTime),
      currentSince: ms(v.currentSinceTime) ?? (routed === 'current' ? ms(routing?.currentVersionChangedTime) : null),
      rampingSince: ms(v.rampingSinceTime),
      firstActivatedAt: ms(v.firstActivationTime),
      lastCurrentAt: ms(v.lastCurrentTime),
    };
  });
  versions.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  return {
    name,
    current,
    ramping: rampingId ? { buildId: rampingId, percent: routing?.rampingVersionPercentage ?? 0 } : null,
    versions,
  };
}

/** One version of a deployment as the engine describes it: the task queues its workers poll, and its metadata. */
export interface VersionDescription {
  /** Each task queue a worker of the version polled, once per task type (workflow, activity). */
  taskQueues: Array<{ name: string; type: number }>;
  /** The version's metadata entries (payloads), by key. */
  metadata: Record<string, Payload>;
}

/**
 * Version `buildId` of deployment `name`, or undefined when the engine knows no such version.
 * @throws the engine's error for anything but "not found".
 */
export async function describeVersion(client: Client, version: { name: string; buildId: string }): Promise<VersionDescription | undefined> {
  let res;
  try {
    res = await client.workflowService.describeWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: { deploymentName: version.name, buildId: version.buildId },
    });
  } catch (err) {
    if (grpcCode(err) === NOT_FOUND) return undefined;
    throw err;
  }
  const queues = res.versionTaskQueues?.length ? res.versionTaskQueues : (res.workerDeploymentVersionInfo?.taskQueueInfos ?? []);
  return {
    taskQueues: queues.map((q) => ({ name: q.name ?? '', type: q.type ?? 0 })),
    metadata: res.workerDeploymentVersionInfo?.metadata?.entries ?? {},
  };
}

/**
 * Whether every task queue a described version polls is `taskQueue` (false when it lists none): a version of the
 * same catalog, whose workers poll only the catalog's task queue, as every Skein worker does.
 */
export function pollsOnly(description: VersionDescription | undefined, taskQueue: string): boolean {
  return description !== undefined && description.taskQueues.length > 0 && description.taskQueues.every((q) => q.name === taskQueue);
}

/** Options of `setCurrentVersion`. */
export interface SetCurrentOptions {
  /**
   * Skips the engine's check that the new version polls every task queue the current one polls (which it makes
   * by describing both versions through its own workflows: about 1 s on Temporal 1.29). Only for a caller that
   * knows the answer (`promoteWhenReady`'s `sameTaskQueue`).
   */
  ignoreMissingTaskQueues?: boolean;
}

/**
 * Makes build `buildId` the current version of deployment `name`: new runs (and auto-upgrade runs at their
 * next workflow task) go to it; a ramp of that same build ends.
 * @param identity who made the change, recorded by the engine.
 * @throws the engine's error (FAILED_PRECONDITION while no worker of the build has polled yet, or while it does not
 *   poll a task queue of the current version that has work; NOT_FOUND for an unknown deployment).
 */
export async function setCurrentVersion(client: Client, name: string, buildId: string, identity: string, options: SetCurrentOptions = {}): Promise<void> {
  await client.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: client.options.namespace,
    deploymentName: name,
    buildId,
    identity,
    ignoreMissingTaskQueues: options.ignoreMissingTaskQueues === true,
  });
}

/**
 * Sends `percent` (0–100) of new runs to build `buildId` of deployment `name`, the rest to the current
 * version; `buildId` null ends any ramp.
 * @throws the engine's error (an unknown deployment or build, a percentage out of range).
 */
export async function setRampingVersion(client: Client, name: string, buildId: string | null, percent: number, identity: string): Promise<void> {
  await client.workflowService.setWorkerDeploymentRampingVersion({
    namespace: client.options.namespace,
    deploymentName: name,
    buildId: buildId ?? '',
    percentage: buildId ? percent : 0,
    identity,
  });
}

/** What `promoteWhenReady` did. */
export type PromoteOutcome = 'promoted' | 'already-current' | 'left-as-is';

/**
 * The rollout of a new build, called by its worker once it polls: waits until the engine lists the version,
 * then makes it current when it is new (it never served new runs: `inactive` or `created`) or when the
 * deployment has no current version. A build that served before and was replaced (`draining`, `drained`: a
 * replica of an old build restarting after a rollout) is left as it is: going back is an operator's
 * `skein deploy rollback` or `promote`, never a side effect of a restart.
 * Replicas of one new build may call it at once: each reads the deployment again after a refused change.
 * The first change is asked as soon as the deployment was read, not after the engine lists the version: a version
 * the engine does not list yet is new by definition, and the engine refuses the change (NOT_FOUND or
 * FAILED_PRECONDITION, asked again every 50 ms) until the worker's first poll registered it. So a new build becomes
 * current one round trip after its first poll.
 * @param options.timeoutMs how long to keep trying, ms (default 30 000).
 * @param options.state the deployment as just read (saves the first read); undefined: read it.
 * @param options.sameTaskQueue true when the caller knows that every task queue of the current version is one its
 *   own workers poll for both workflow and activity tasks (a Skein worker's catalog): the engine's own check of
 *   that (`SetCurrentOptions.ignoreMissingTaskQueues`) is then skipped.
 * @throws Error when the version is not listed (or not promoted) in time; the engine's error for an answer not worth retrying.
 */
export async function promoteWhenReady(
  client: Client,
  target: { name: string; buildId: string; identity: string },
  options: { timeoutMs?: number; signal?: AbortSignal; state?: DeploymentState | undefined; sameTaskQueue?: boolean } = {},
): Promise<PromoteOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let state = 'state' in options ? options.state : await describeDeployment(client, target.name);
  for (;;) {
    if (options.signal?.aborted) return 'left-as-is';
    const version = state?.versions.find((v) => v.buildId === target.buildId);
    if (state?.current === target.buildId) return 'already-current';
    const fresh = !version || version.state === 'inactive' || version.state === 'created' || (version.state === 'unknown' && version.firstActivatedAt === null);
    if (!fresh && state?.current !== null && state?.current !== undefined) return 'left-as-is';
    try {
      await setCurrentVersion(client, target.name, target.buildId, target.identity, { ignoreMissingTaskQueues: options.sameTaskQueue === true });
      return 'promoted';
    } catch (err) {
      // The next round reads the deployment again: a replica may have promoted the build meanwhile.
      if (!RETRYABLE.has(grpcCode(err) ?? -1)) throw err;
    }
    if (Date.now() > deadline)
      throw new Error(`Temporal did not list (or promote) version ${target.buildId} of deployment "${target.name}" within ${options.timeoutMs ?? 30_000} ms`);
    await new Promise((r) => setTimeout(r, 50));
    state = await describeDeployment(client, target.name);
  }
}
