import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { historyPages } from './history-pages.js';
import { toNumber } from './proto.js';

type IHistoryEvent = T.api.history.v1.IHistoryEvent;

/**
 * The step (or evaluator) name of an activity type: the part after `#` of `<workflowName>#<activityName>`
 * (docs/reference/api-contract.md, "Names"); a type without `#` is its own name.
 */
export function stepNameOf(activityType: string): string {
  const hash = activityType.lastIndexOf('#');
  return hash < 0 ? activityType : activityType.slice(hash + 1);
}

/** Attributes of the activity events that point back at their `ActivityTaskScheduled` event by `scheduledEventId`. */
const REFERRING = [
  'activityTaskStartedEventAttributes',
  'activityTaskCompletedEventAttributes',
  'activityTaskFailedEventAttributes',
  'activityTaskTimedOutEventAttributes',
  'activityTaskCancelRequestedEventAttributes',
  'activityTaskCanceledEventAttributes',
  'activityPropertiesModifiedExternallyEventAttributes',
] as const satisfies readonly (keyof IHistoryEvent)[];

/** The `scheduledEventId` an activity event refers to, or undefined for any other event. */
function scheduledIdOf(e: IHistoryEvent): number | undefined {
  for (const key of REFERRING) {
    const attrs = e[key] as { scheduledEventId?: unknown } | null | undefined;
    if (attrs) return toNumber(attrs.scheduledEventId);
  }
  return undefined;
}

/** What is known of one run: step names by scheduled event id, and up to which event id history was read from 1. */
interface RunSteps {
  names: Map<number, string>;
  scannedTo: number;
}

/**
 * Step names per run, kept for the runs read most recently (at most {@link MAX_RUNS}). History only ever grows at
 * its end, so what was learnt of a run stays true; a client paging from the first event fills its run's entry as it
 * goes and never costs an extra engine call.
 */
const runs = new Map<string, RunSteps>();
const MAX_RUNS = 128;

function entryOf(workflowId: string, runId: string): RunSteps {
  const key = `${workflowId}\u0000${runId.toLowerCase()}`;
  let entry = runs.get(key);
  if (entry) {
    runs.delete(key); // re-insert: most recently used last
  } else {
    entry = { names: new Map(), scannedTo: 0 };
    if (runs.size >= MAX_RUNS) runs.delete(runs.keys().next().value!);
  }
  runs.set(key, entry);
  return entry;
}

/** Records the scheduled activities of contiguous `events` (ascending ids) and extends `scannedTo` when they follow it. */
function learn(entry: RunSteps, events: IHistoryEvent[]): void {
  for (const e of events) {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
    if (name) entry.names.set(toNumber(e.eventId), stepNameOf(name));
  }
  if (events.length === 0) return;
  const first = toNumber(events[0]!.eventId);
  const last = toNumber(events[events.length - 1]!.eventId);
  if (first <= entry.scannedTo + 1 && last > entry.scannedTo) entry.scannedTo = last;
}

/** Reads the run's history from its first event until event `upTo` is covered, learning every scheduled activity. */
async function backfill(client: Client, workflowId: string, runId: string, entry: RunSteps, upTo: number, signal: AbortSignal): Promise<void> {
  for await (const events of historyPages(client, workflowId, runId, signal)) {
    // A page from the start is contiguous with what is known, so `scannedTo` follows it.
    learn(entry, events);
    if (entry.scannedTo >= upTo) return;
  }
}

/**
 * The step names of the activity events of `events` (one page of a run's history, ascending event ids), by event
 * id: the `ActivityTaskScheduled` event names its activity type, and every later event of that activity (started,
 * completed, failed, timed out, cancel requested, canceled) refers to it by `scheduledEventId`. When a referenced
 * scheduled event lies before anything this process has read of the run (a client resuming mid-history), the
 * run's history is read from its start up to it, once.
 * @throws ApiError from the engine (`WorkflowNotFoundError`, `InternalError`); the signal's reason when aborted.
 */
export async function stepNames(
  client: Client,
  workflowId: string,
  runId: string,
  events: IHistoryEvent[],
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const entry = entryOf(workflowId, runId);
  learn(entry, events);
  let missing = 0;
  for (const e of events) {
    const sid = scheduledIdOf(e);
    if (sid !== undefined && !entry.names.has(sid) && sid > entry.scannedTo) missing = Math.max(missing, sid);
  }
  if (missing > 0) await backfill(client, workflowId, runId, entry, missing, signal ?? new AbortController().signal);
  const out = new Map<number, string>();
  for (const e of events) {
    const id = toNumber(e.eventId);
    const own = e.activityTaskScheduledEventAttributes?.activityType?.name;
    const sid = scheduledIdOf(e);
    const name = own ? stepNameOf(own) : sid !== undefined ? entry.names.get(sid) : undefined;
    if (name !== undefined) out.set(id, name);
  }
  return out;
}
