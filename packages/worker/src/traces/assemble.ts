/**
 * Builds a root run's trace tree from Temporal's own histories: the root run's, then each child run's, however
 * many workers ran its parts. History is the record every worker wrote through, so the tree is complete
 * whichever worker assembles it (see docs/architecture.md, "Run time: one trace per run tree").
 */
import { WEBHOOK_REQUEST_SUMMARY, WEBHOOK_RESUME_SIGNAL, type SerializedError } from '@skein/core';
import { MAX_CAUSE_DEPTH, type TraceEvent } from '@skein/core/internal';
import { defaultPayloadConverter } from '@temporalio/common';
import { resetRunId } from '@skein/names/traces';
import type { temporal } from '@temporalio/proto';
import { carriedAttemptErrors } from './attempts.js';
import { redact } from './redact.js';
import type { TraceNode, TraceNodeKind } from './types.js';

type IHistory = temporal.api.history.v1.IHistory;
type IHistoryEvent = temporal.api.history.v1.IHistoryEvent;
type IFailure = temporal.api.failure.v1.IFailure;
type IPayloads = temporal.api.common.v1.IPayloads;
type Retries = NonNullable<TraceNode['retries']>;

/** What assembly reads besides history. */
export interface AssemblySources {
  /** Every event of one run's history. @throws when the engine cannot answer. */
  history(workflowId: string, runId: string): Promise<IHistory>;
  /**
   * The trace kind and display name of an activity type (`<workflow>#<name>`); `untraced` when its definition sets
   * `options.disableTrace` (its calls are left out of the tree).
   */
  activity(activityType: string): { kind: Exclude<TraceNodeKind, 'workflow' | 'child_workflow'>; name: string; untraced?: boolean };
  /**
   * Events a step added with `Tracing` on this worker, by `<workflowId>:<runId>:<activityId>` (its last attempt
   * that this worker ran), filed under the step's node.
   */
  events?(key: string): TraceEvent[] | undefined;
  /**
   * Errors of earlier attempts of one activity that this worker ran, by `<workflowId>:<runId>:<activityId>`
   * (history keeps only the last attempt's failure before the final one).
   */
  retries(key: string): Retries | undefined;
}

/** The closing outcome of a run as its worker saw it (its close event may not be in history yet). */
export type RunOutcome = { output: unknown; endedAt: number } | { error: SerializedError; endedAt: number };

/**
 * A run of the tree that has just closed on the assembling worker, with its outcome. The worker learns of the close
 * before the engine records it (the SDK calls its sinks before it sends the workflow task's completion), so the
 * run's history may still read as running when the tree is assembled: the outcome closes that run's node then.
 */
export interface ClosingRun {
  workflowId: string;
  runId: string;
  outcome: RunOutcome;
}

function closeWith(node: TraceNode, outcome: RunOutcome): void {
  close(node, outcome.endedAt, 'error' in outcome ? { error: outcome.error } : { output: redact(outcome.output) });
}

/** Most child runs one tree follows (a fan-out beyond it keeps the parent's view of the rest). */
const MAX_CHILD_RUNS = 1000;

type Seconds = number | { toNumber(): number } | null | undefined;
const ms = (t: temporal.api.history.v1.IHistoryEvent['eventTime']): number | null => {
  if (!t) return null;
  const s = t.seconds as Seconds;
  return (typeof s === 'number' ? s : (s?.toNumber() ?? 0)) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
};

function decode(payloads: IPayloads | null | undefined): unknown {
  const p = payloads?.payloads?.[0];
  if (!p) return null;
  try {
    return redact(defaultPayloadConverter.fromPayload(p) ?? null);
  } catch {
    return '[undecodable payload]';
  }
}

/**
 * An engine failure as a trace error: the original error's name (its application type), its message and cause
 * chain (cut at 10 levels, as the worker's own errors are).
 */
export function failureToError(f: IFailure, depth = 1): SerializedError {
  const app = f.applicationFailureInfo;
  const name =
    app?.type ||
    (f.activityFailureInfo
      ? 'ActivityFailure'
      : f.childWorkflowExecutionFailureInfo
        ? 'ChildWorkflowFailure'
        : f.timeoutFailureInfo
          ? 'TimeoutFailure'
          : f.canceledFailureInfo
            ? 'CancelledFailure'
            : f.terminatedFailureInfo
              ? 'TerminatedFailure'
              : f.serverFailureInfo
                ? 'ServerFailure'
                : 'Error');
  const out: SerializedError = { name, message: f.message ?? '' };
  if (app?.type) out.type = app.type;
  if (f.cause) {
    if (depth >= MAX_CAUSE_DEPTH) out.truncated = true;
    else out.cause = failureToError(f.cause, depth + 1);
  }
  return out;
}

function close(node: TraceNode, endedAt: number | null, result: { output: unknown } | { error: SerializedError }): void {
  node.endedAt = endedAt;
  node.durationMs = endedAt !== null && node.startedAt !== null ? endedAt - node.startedAt : null;
  if ('error' in result) {
    node.status = 'failed';
    node.error = result.error;
    delete node.output;
  } else {
    node.status = 'completed';
    node.output = result.output;
  }
}

const simple = (name: string, message: string): SerializedError => ({ name, message });

/** The schedule that started a run, from its start event's `TemporalScheduledById` search attribute; undefined if none. */
function scheduledBy(attributes: { searchAttributes?: { indexedFields?: Record<string, temporal.api.common.v1.IPayload> | null } | null }): string | undefined {
  const p = attributes.searchAttributes?.indexedFields?.TemporalScheduledById;
  if (!p) return undefined;
  try {
    const v = defaultPayloadConverter.fromPayload(p);
    return typeof v === 'string' && v ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The trace tree of one root run: the workflow node with its activities and child workflows (recursively, each
 * child from its own run's history), inputs and outputs decoded and redacted.
 * `outcome` closes the root when its close event is not in history yet (the closing worker's view); `closing` does
 * the same for a child run of the tree that has just closed on this worker (a detached child closing after its root).
 * @throws when the root's history cannot be read (child histories that cannot be read keep the parent's view).
 */
export async function assembleTrace(
  root: { workflowId: string; runId: string },
  sources: AssemblySources,
  outcome?: RunOutcome,
  closing?: ClosingRun,
): Promise<TraceNode> {
  const budget = { children: MAX_CHILD_RUNS };
  const tree = await runNode('workflow', root.workflowId, root.runId, sources, budget, closing);
  if (outcome && tree.status === 'running') closeWith(tree, outcome);
  return tree;
}

async function runNode(
  kind: 'workflow' | 'child_workflow',
  workflowId: string,
  runId: string,
  sources: AssemblySources,
  budget: { children: number },
  closing?: ClosingRun,
): Promise<TraceNode> {
  const history = await sources.history(workflowId, runId);
  const node: TraceNode = { kind, name: '', status: 'running', workflowId, runId, startedAt: null, endedAt: null, durationMs: null, children: [] };
  const activities = new Map<string, TraceNode>();
  const lastFailures = new Map<string, IFailure>();
  const finalFailures = new Map<string, IFailure>();
  const children = new Map<string, TraceNode>();
  const childRuns: Array<{ node: TraceNode; runId: string }> = [];
  /** Scheduled event ids of webhook requests, and the webhook waits opened after them. */
  const webhookRequests = new Set<string>();
  const webhooks: TraceNode[] = [];
  /** Webhook requests not completed yet (scheduled event ids), and the `resume` payloads that arrived meanwhile. */
  const requestsInFlight = new Set<string>();
  const earlyResumes: unknown[] = [];
  for (const e of (history.events ?? []) as IHistoryEvent[]) {
    const at = ms(e.eventTime);
    const id = String(e.eventId);
    if (e.workflowExecutionStartedEventAttributes) {
      const a = e.workflowExecutionStartedEventAttributes;
      node.name = a.workflowType?.name ?? '';
      node.startedAt = at;
      node.input = decode(a.input);
      const scheduleId = scheduledBy(a);
      if (scheduleId) node.scheduleId = scheduleId;
      if (resetRunId(runId, a.originalExecutionRunId)) node.originalRunId = a.originalExecutionRunId!;
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      const type = a.activityType?.name ?? '';
      const { kind: activityKind, name, untraced } = sources.activity(type);
      if (summaryOf(e) === WEBHOOK_REQUEST_SUMMARY) {
        webhookRequests.add(id);
        requestsInFlight.add(id);
      }
      const act: TraceNode = {
        kind: activityKind,
        name,
        status: 'running',
        activityType: type,
        activityId: a.activityId ?? '',
        startedAt: null,
        endedAt: null,
        durationMs: null,
        input: decode(a.input),
        children: [],
      };
      activities.set(id, act);
      // A step with `options.disableTrace` is followed (its events close it) but not shown.
      if (!untraced) node.children.push(act);
    } else if (e.activityTaskStartedEventAttributes) {
      const a = e.activityTaskStartedEventAttributes;
      const act = activities.get(String(a.scheduledEventId));
      if (!act) continue;
      act.attempt = a.attempt ?? 1;
      act.startedAt = at;
      if (a.lastFailure) lastFailures.set(String(a.scheduledEventId), a.lastFailure);
    } else if (e.activityTaskCompletedEventAttributes) {
      const a = e.activityTaskCompletedEventAttributes;
      const act = activities.get(String(a.scheduledEventId));
      if (act) close(act, at, { output: decode(a.result) });
      if (webhookRequests.has(String(a.scheduledEventId))) {
        // The run now waits for its webhook: a `webhook` node until the `resume` signal, which it ends with.
        const sent = act?.input as { payload?: { payload?: unknown } } | null | undefined;
        const wait: TraceNode = {
          kind: 'webhook',
          name: WEBHOOK_RESUME_SIGNAL,
          status: 'running',
          startedAt: at,
          endedAt: null,
          durationMs: null,
          input: sent?.payload?.payload ?? null,
          children: [],
        };
        webhooks.push(wait);
        node.children.push(wait);
        requestsInFlight.delete(String(a.scheduledEventId));
        // The service may answer before its request's activity reports back: that answer ends the wait at once.
        if (earlyResumes.length > 0) close(wait, at, { output: earlyResumes.shift() });
      }
    } else if (e.workflowExecutionSignaledEventAttributes?.signalName === WEBHOOK_RESUME_SIGNAL) {
      const wait = webhooks.find((w) => w.status === 'running');
      const payload = decode(e.workflowExecutionSignaledEventAttributes.input);
      if (wait) close(wait, at, { output: payload });
      else if (requestsInFlight.size > earlyResumes.length) earlyResumes.push(payload);
    } else if (e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes) {
      const a = (e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes)!;
      const act = activities.get(String(a.scheduledEventId));
      if (a.failure) finalFailures.set(String(a.scheduledEventId), a.failure);
      requestsInFlight.delete(String(a.scheduledEventId));
      if (act) close(act, at, { error: a.failure ? failureToError(a.failure) : simple('ActivityFailure', 'activity failed') });
    } else if (e.activityTaskCanceledEventAttributes) {
      const act = activities.get(String(e.activityTaskCanceledEventAttributes.scheduledEventId));
      requestsInFlight.delete(String(e.activityTaskCanceledEventAttributes.scheduledEventId));
      if (act) close(act, at, { error: simple('CancelledFailure', 'activity cancelled') });
    } else if (e.startChildWorkflowExecutionInitiatedEventAttributes) {
      const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
      const child: TraceNode = {
        kind: 'child_workflow',
        name: a.workflowType?.name ?? '',
        status: 'running',
        workflowId: a.workflowId ?? '',
        startedAt: at,
        endedAt: null,
        durationMs: null,
        input: decode(a.input),
        children: [],
      };
      children.set(id, child);
      node.children.push(child);
    } else if (e.startChildWorkflowExecutionFailedEventAttributes) {
      const a = e.startChildWorkflowExecutionFailedEventAttributes;
      const child = children.get(String(a.initiatedEventId));
      if (child) close(child, at, { error: simple('ChildWorkflowFailure', `child workflow ${a.workflowId ?? ''} could not start (already started)`) });
    } else if (e.childWorkflowExecutionStartedEventAttributes) {
      const a = e.childWorkflowExecutionStartedEventAttributes;
      const child = children.get(String(a.initiatedEventId));
      if (child && a.workflowExecution?.runId) {
        child.runId = a.workflowExecution.runId;
        childRuns.push({ node: child, runId: a.workflowExecution.runId });
      }
    } else {
      const closed = childClose(e);
      if (closed) {
        const child = children.get(closed.initiatedEventId);
        if (child) close(child, at, closed.result);
        continue;
      }
      const own = runClose(e);
      if (own) close(node, at, own);
    }
  }
  if (node.status === 'running' && closing && closing.workflowId === workflowId && closing.runId === runId) closeWith(node, closing.outcome);
  for (const [scheduledId, act] of activities) {
    const key = `${workflowId}:${runId}:${act.activityId}`;
    retriesOf(act, sources.retries(key), lastFailures.get(scheduledId), finalFailures.get(scheduledId));
    const events = sources.events?.(key);
    if (events?.length) act.children.push(...eventNodes(events));
  }
  for (const { node: placeholder, runId: childRunId } of childRuns) {
    if (budget.children-- <= 0) break;
    try {
      const full = await runNode('child_workflow', placeholder.workflowId!, childRunId, sources, budget, closing);
      // The child's own history closes it, unless that run continued as new: then the parent's view stands.
      if (full.status === 'running' && placeholder.status !== 'running') Object.assign(full, pick(placeholder));
      Object.assign(placeholder, full);
    } catch {
      /* keep the parent's view of this child */
    }
  }
  return node;
}

/**
 * The errors of an activity's attempts before its current one, by attempt: those this worker ran (`seen`), those
 * the failures in history carry (the last failure before the final attempt, and the final failure, each with the
 * attempts before it: traces/attempts.ts) and the last failure itself.
 */
function retriesOf(act: TraceNode, seen: Retries | undefined, last: IFailure | undefined, final: IFailure | undefined): void {
  const byAttempt = new Map<number, SerializedError>();
  for (const carried of [carriedAttemptErrors(final), carriedAttemptErrors(last)]) {
    for (const { attempt, error } of carried.errors) byAttempt.set(attempt, error);
  }
  if (last && act.attempt && act.attempt > 1) byAttempt.set(act.attempt - 1, failureToError(last));
  for (const { attempt, error } of seen ?? []) byAttempt.set(attempt, error);
  const earlier = [...byAttempt]
    .filter(([attempt]) => act.attempt === undefined || attempt < act.attempt)
    .sort(([a], [b]) => a - b)
    .map(([attempt, error]) => ({ attempt, error }));
  if (earlier.length > 0) act.retries = earlier;
  // Attempts neither this worker ran nor history carries (beyond the carried bound, or timed out unreported).
  const missing = act.attempt ? act.attempt - 1 - earlier.length : 0;
  if (missing > 0) act.retriesDropped = missing;
}

const pick = (n: TraceNode) => ({
  status: n.status,
  endedAt: n.endedAt,
  durationMs: null,
  ...(n.error ? { error: n.error } : {}),
  ...('output' in n ? { output: n.output } : {}),
});

function childClose(e: IHistoryEvent): { initiatedEventId: string; result: { output: unknown } | { error: SerializedError } } | undefined {
  const c = e.childWorkflowExecutionCompletedEventAttributes;
  if (c) return { initiatedEventId: String(c.initiatedEventId), result: { output: decode(c.result) } };
  const f = e.childWorkflowExecutionFailedEventAttributes;
  if (f)
    return {
      initiatedEventId: String(f.initiatedEventId),
      result: { error: f.failure ? failureToError(f.failure) : simple('ChildWorkflowFailure', 'child workflow failed') },
    };
  const other =
    (e.childWorkflowExecutionCanceledEventAttributes &&
      (['CancelledFailure', 'child workflow cancelled', e.childWorkflowExecutionCanceledEventAttributes] as const)) ||
    (e.childWorkflowExecutionTimedOutEventAttributes &&
      (['TimeoutFailure', 'child workflow timed out', e.childWorkflowExecutionTimedOutEventAttributes] as const)) ||
    (e.childWorkflowExecutionTerminatedEventAttributes &&
      (['TerminatedFailure', 'child workflow terminated', e.childWorkflowExecutionTerminatedEventAttributes] as const));
  if (other) return { initiatedEventId: String(other[2].initiatedEventId), result: { error: simple(other[0], other[1]) } };
  return undefined;
}

function runClose(e: IHistoryEvent): { output: unknown } | { error: SerializedError } | undefined {
  if (e.workflowExecutionCompletedEventAttributes) return { output: decode(e.workflowExecutionCompletedEventAttributes.result) };
  const f = e.workflowExecutionFailedEventAttributes;
  if (f) return { error: f.failure ? failureToError(f.failure) : simple('Error', 'workflow failed') };
  if (e.workflowExecutionTimedOutEventAttributes) return { error: simple('TimeoutFailure', 'workflow timed out') };
  if (e.workflowExecutionTerminatedEventAttributes)
    return { error: simple('TerminatedFailure', e.workflowExecutionTerminatedEventAttributes.reason || 'workflow terminated') };
  if (e.workflowExecutionCanceledEventAttributes) return { error: simple('CancelledFailure', 'workflow cancelled') };
  if (e.workflowExecutionContinuedAsNewEventAttributes) return { output: null };
  return undefined;
}

/** The activity summary of a scheduled activity (`ActivityOptions.summary`), if any. */
function summaryOf(e: IHistoryEvent): unknown {
  const summary = e.userMetadata?.summary;
  if (!summary) return undefined;
  try {
    return defaultPayloadConverter.fromPayload(summary);
  } catch {
    return undefined;
  }
}

/**
 * The nodes of the events a step added with `Tracing`: one per started event, in order, closed by its end (output)
 * or error; attributes kept on the node. Events never started are ignored.
 */
export function eventNodes(events: readonly TraceEvent[]): TraceNode[] {
  const byId = new Map<string, TraceNode>();
  const out: TraceNode[] = [];
  for (const ev of events) {
    if (ev.action === 'start') {
      const n: TraceNode = {
        kind: ev.kind ?? 'event',
        name: ev.name ?? ev.id,
        status: 'running',
        eventId: ev.id,
        startedAt: ev.at,
        endedAt: null,
        durationMs: null,
        input: redact(ev.details ?? null),
        children: [],
      };
      byId.set(ev.id, n);
      out.push(n);
      continue;
    }
    const n = byId.get(ev.id);
    if (!n) continue;
    if (ev.action === 'attribute') (n.attributes ??= []).push(redact(ev.details ?? null));
    else if (ev.action === 'end') close(n, ev.at, { output: redact(ev.details ?? null) });
    else close(n, ev.at, { error: eventError(ev.details) });
  }
  return out;
}

function eventError(details: unknown): SerializedError {
  if (details && typeof details === 'object') {
    const d = details as { name?: unknown; message?: unknown };
    return { name: typeof d.name === 'string' ? d.name : 'Error', message: typeof d.message === 'string' ? d.message : JSON.stringify(details) };
  }
  return { name: 'Error', message: String(details) };
}
