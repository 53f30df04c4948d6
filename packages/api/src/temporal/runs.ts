import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { resetRunId, type TraceObjectRoot } from '@skein/names/traces';
import { temporal } from './proto.js';
import type { temporal as T } from '@temporalio/proto';
import { ApiError } from '../errors.js';
import { engine, engineError, GRPC, grpcCode } from './engine.js';
import { decodeFirst } from './payloads.js';
import { runStatus, type RunStatus } from './status.js';
import { failureView, runFailureFields, resultError, type ErrorDetails, type FailureView, type ResultError } from './failure.js';

type IHistoryEvent = T.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;
const CLOSE_EVENT = temporal.api.enums.v1.HistoryEventFilterType.HISTORY_EVENT_FILTER_TYPE_CLOSE_EVENT;

/** What the API knows about one run from `DescribeWorkflowExecution`. */
export interface RunInfo {
  workflowId: string;
  runId: string;
  workflowType: string;
  taskQueue: string;
  status: RunStatus;
  /** Epoch ms. */
  startedAt: number;
  /** Epoch ms; null while running. */
  completedAt: number | null;
  /**
   * Epoch ms: when the `startDelay` of a running run that is still waiting for it ends (Temporal's execution time,
   * later than now); null otherwise.
   */
  delayedUntil: number | null;
  historyLength: number;
  /** Decoded memo. */
  memo: Record<string, unknown>;
  /** The root run of this run's tree (itself for a run without a parent). */
  root: { workflowId: string; runId: string };
  /** The schedule that started the run (Temporal's `TemporalScheduledById` search attribute), or null. */
  scheduleId: string | null;
  /**
   * The build (Worker Versioning build ID) whose worker completed the run's last workflow task, as the engine
   * records it; null for an unversioned run or one no versioned worker has run yet.
   */
  buildId: string | null;
}

/** Temporal's search attribute naming the schedule that started a run. */
export const SCHEDULED_BY_ID = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

/**
 * A closed run never changes, so its description is kept (at most {@link CLOSED_MAX} runs, 5 minutes) and
 * pinned reads of it (history pages, result, input) skip the engine round trip.
 */
const CLOSED_MAX = 1000;
const CLOSED_TTL_MS = 5 * 60_000;
const closedRuns = new LRUCache<string, RunInfo>({ max: CLOSED_MAX, ttl: CLOSED_TTL_MS });

/** The cached description of a closed run, if any (no engine call). */
export function cachedClosedRun(workflowId: string, runId: string): RunInfo | undefined {
  return closedRuns.get(`${workflowId}\u0000${runId.toLowerCase()}`);
}

/**
 * Describes a run: the latest run of `workflowId` when `runId` is omitted, else exactly that run.
 * @throws ApiError `WorkflowNotFoundError` (404) for an unknown execution or run; `InternalError` otherwise.
 */
export async function describeRun(client: Client, workflowId: string, runId?: string): Promise<RunInfo> {
  const key = runId ? `${workflowId}\u0000${runId.toLowerCase()}` : undefined;
  const hit = key ? closedRuns.get(key) : undefined;
  if (hit) return hit;
  const d = await engine(workflowId, () => client.workflow.getHandle(workflowId, runId).describe());
  const info: RunInfo = {
    workflowId: d.workflowId,
    runId: d.runId,
    workflowType: d.type,
    taskQueue: d.taskQueue,
    status: runStatus(d.status.name),
    startedAt: d.startTime.getTime(),
    completedAt: d.closeTime ? d.closeTime.getTime() : null,
    delayedUntil: !d.closeTime && d.executionTime && d.executionTime.getTime() > Date.now() ? d.executionTime.getTime() : null,
    historyLength: d.historyLength,
    memo: d.memo ?? {},
    root:
      d.rootExecution?.workflowId && d.rootExecution.runId
        ? { workflowId: d.rootExecution.workflowId, runId: d.rootExecution.runId }
        : { workflowId: d.workflowId, runId: d.runId },
    scheduleId: d.typedSearchAttributes.get(SCHEDULED_BY_ID) ?? null,
    buildId: runBuildId(d.raw.workflowExecutionInfo?.versioningInfo),
  };
  if (info.status !== 'running') {
    closedRuns.set(`${workflowId}\u0000${info.runId.toLowerCase()}`, info);
  }
  return info;
}

/** The build ID in a run's versioning info (`deploymentVersion`, or the older `deployment` field), else null. */
function runBuildId(v: T.api.workflow.v1.IWorkflowExecutionVersioningInfo | null | undefined): string | null {
  return v?.deploymentVersion?.buildId || v?.deployment?.buildId || null;
}

/**
 * The first history event (`WorkflowExecutionStarted`) of a run.
 * @throws ApiError `WorkflowNotFoundError` when the run does not exist.
 */
export async function startedEvent(client: Client, workflowId: string, runId: string): Promise<T.api.history.v1.IWorkflowExecutionStartedEventAttributes> {
  const res = await engine(workflowId, () =>
    client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId, runId },
      maximumPageSize: 1,
    }),
  );
  const attrs = res.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!attrs) throw new ApiError('WorkflowNotFoundError', { workflowId });
  return attrs;
}

/**
 * What names a root run's trace object: its workflow type, its id, its start (the time of its
 * `WorkflowExecutionStarted` event in epoch ms, nanoseconds cut, as Temporal's SDK reads it into
 * `workflowInfo().startTime`) and, for a run made by a reset, its run id; from the first page of its history (one
 * event).
 * @throws ApiError `WorkflowNotFoundError` when the run does not exist; `InternalError` when the engine fails.
 */
export async function runStart(client: Client, workflowId: string, runId: string): Promise<TraceObjectRoot> {
  const res = await engine(workflowId, () =>
    client.workflowService.getWorkflowExecutionHistory({ namespace: client.options.namespace, execution: { workflowId, runId }, maximumPageSize: 1 }),
  );
  const first = res.history?.events?.[0];
  const started = first?.workflowExecutionStartedEventAttributes;
  const type = started?.workflowType?.name;
  if (!first?.eventTime || typeof type !== 'string') throw new ApiError('WorkflowNotFoundError', { workflowId });
  const seconds = first.eventTime.seconds as number | { toNumber(): number } | null | undefined;
  const whole = typeof seconds === 'number' ? seconds : (seconds?.toNumber() ?? 0);
  return {
    workflowType: type,
    workflowId,
    startedAt: whole * 1000 + Math.floor((first.eventTime.nanos ?? 0) / 1e6),
    runId: resetRunId(runId, started?.originalExecutionRunId),
  };
}

/** The original input of a run, decoded from its first history event. */
export async function runInput(client: Client, workflowId: string, runId: string): Promise<unknown> {
  return decodeFirst((await startedEvent(client, workflowId, runId)).input);
}

/**
 * The first run of the chain `runId` belongs to (the run a start made; later runs come from continue-as-new or a
 * reset) and that run's input: the original input of the execution.
 * @throws ApiError `WorkflowNotFoundError` when the run does not exist.
 */
export async function chainStart(client: Client, workflowId: string, runId: string): Promise<{ runId: string; input: unknown }> {
  const started = await startedEvent(client, workflowId, runId);
  const firstRunId = started.firstExecutionRunId || runId;
  return { runId: firstRunId, input: firstRunId === runId ? decodeFirst(started.input) : await runInput(client, workflowId, firstRunId) };
}

/** The least time between two long-polls of one wait that came back empty, ms. */
const EMPTY_POLL_PAUSE_MS = 250;

/**
 * Waits for the close event of a run: long-polls the engine until the run closes, `signal` aborts, or
 * `deadline` (epoch ms) passes.
 * @returns the close event, or `undefined` when the deadline passed first.
 * @throws ApiError `WorkflowNotFoundError`; the abort reason when `signal` aborted.
 */
export async function waitCloseEvent(
  client: Client,
  workflowId: string,
  runId: string,
  options: { deadline: number; signal?: AbortSignal; wait?: boolean },
): Promise<IHistoryEvent | undefined> {
  const wait = options.wait ?? true;
  let token: Uint8Array | undefined;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('deadline')), remaining);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const asked = Date.now();
    try {
      // The wait's own deadline and abort signal, never those of the async context it was started from: a watch
      // started inside a request's engine call would inherit that call's short deadline, and the engine answers a
      // long-poll near its deadline at once with an empty page (hundreds of polls a second).
      const res = await client.withDeadline(options.deadline, () =>
        client.withAbortSignal(controller.signal, () =>
          client.workflowService.getWorkflowExecutionHistory({
            namespace: client.options.namespace,
            execution: { workflowId, runId },
            waitNewEvent: wait,
            historyEventFilterType: CLOSE_EVENT,
            skipArchival: true,
            ...(token ? { nextPageToken: token } : {}),
          }),
        ),
      );
      const event = res.history?.events?.[0];
      if (event) return event;
      if (!wait) return undefined;
      token = res.nextPageToken?.length ? res.nextPageToken : undefined;
      // An empty page normally ends a long-poll of some 20 s; one that came back at once is not asked again at once.
      if (Date.now() - asked < EMPTY_POLL_PAUSE_MS) await sleep(EMPTY_POLL_PAUSE_MS, undefined, { signal: options.signal }).catch(() => undefined);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (controller.signal.aborted || grpcCode(err) === GRPC.DEADLINE_EXCEEDED) return undefined;
      throw engineError(err, workflowId);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/**
 * Waits for the end of a run's continue-as-new chain: the close event of `runId`, and while that event is a
 * continue-as-new, the close event of the run it started, all within the one `deadline` (epoch ms), as Temporal's
 * `handle.result()` follows continue-as-new and the seed system's run route answers. (`handle.result()` also
 * follows a cron or retry policy's next run; the API starts runs with neither.)
 * @returns the outcome of the chain's last run and that run's id, or `undefined` when the deadline passed first.
 * @throws ApiError `WorkflowNotFoundError`; the abort reason when `signal` aborted.
 */
export async function waitChainEnd(
  client: Client,
  workflowId: string,
  runId: string,
  options: { deadline: number; signal?: AbortSignal },
): Promise<{ outcome: Outcome; runId: string } | undefined> {
  let current = runId;
  for (;;) {
    const close = await waitCloseEvent(client, workflowId, current, options);
    if (!close) return undefined;
    const outcome = outcomeOf(close);
    if (!outcome.newRunId) return { outcome, runId: current };
    current = outcome.newRunId;
  }
}

/** The outcome of a closed run, read from its close event. */
export interface Outcome {
  status: Exclude<RunStatus, 'running'>;
  output: unknown;
  failure: T.api.failure.v1.IFailure | null;
  /** Run id of the next run (continue-as-new), when any. */
  newRunId: string | null;
}

/** Reads status, output and failure from a close event (`WorkflowExecution{Completed,Failed,...}`). */
export function outcomeOf(event: IHistoryEvent): Outcome {
  switch (event.eventType) {
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
      return { status: 'completed', output: decodeFirst(event.workflowExecutionCompletedEventAttributes?.result), failure: null, newRunId: null };
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
      return {
        status: 'failed',
        output: null,
        failure: event.workflowExecutionFailedEventAttributes?.failure ?? { message: 'Workflow failed' },
        newRunId: null,
      };
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
      return { status: 'timed_out', output: null, failure: null, newRunId: null };
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
      return { status: 'canceled', output: null, failure: null, newRunId: null };
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
      return { status: 'terminated', output: null, failure: null, newRunId: null };
    case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
      return {
        status: 'continued_as_new',
        output: null,
        failure: null,
        newRunId: event.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? null,
      };
    default:
      throw new ApiError('InternalError', { message: 'Unexpected close event' });
  }
}

/** Failure fields of the run response: all null unless failed. */
export function runResponseFailure(outcome: Outcome): { error: string | null; errorDetails: ErrorDetails | null; failure: FailureView | null } {
  if (outcome.status !== 'failed' || !outcome.failure) return { error: null, errorDetails: null, failure: null };
  return runFailureFields(outcome.failure);
}

/** `error` of the result response: null unless failed. */
export function resultResponseError(outcome: Outcome): ResultError | null {
  return outcome.status === 'failed' && outcome.failure ? resultError(outcome.failure) : null;
}

export { failureView };
