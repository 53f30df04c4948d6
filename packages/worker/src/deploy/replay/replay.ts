import protoModule from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { pino, type Logger } from 'pino';
import { WorkerEvents } from '../../interceptors/events.js';
import { skeinSinks } from '../../interceptors/sinks.js';
import { untracedSinks } from '../../interceptors/workflow-tracing.js';
import { installTemporalRuntime } from '../../host/logger.js';
import type { MismatchedEvent, ReplayHistory, ReplayOutcome } from './types.js';

const EventType = protoModule.temporal.api.enums.v1.EventType as unknown as Record<number, string>;

/** Options of `replayHistories`. */
export interface ReplayOptions {
  /** Where the Temporal SDK's own warnings go (installed once per process, see `installTemporalRuntime`). */
  logger?: Logger;
}

type HistoryEvent = NonNullable<ReplayHistory['history']['events']>[number];

const typeName = (event: HistoryEvent) => {
  const name = event.eventType != null ? EventType[Number(event.eventType)] : undefined;
  return name ? name.replace(/^EVENT_TYPE_/, '') : null;
};

/**
 * The history event Temporal's explanation of a failed replay names, with its type from the history: by id
 * (`HistoryEvent(id: 5, ...)`), else the scheduled activity or started timer whose id it names (`... id of
 * scheduled event '3' ...`), else the first scheduled activity of the activity type it names (`Activity type
 * of scheduled event 'approval#record' ...`). Null when it names none.
 */
export function mismatchedEvent(message: string, history: ReplayHistory['history']): MismatchedEvent | null {
  const events = history.events ?? [];
  const found = (event: HistoryEvent | undefined) => (event ? { eventId: Number(event.eventId), eventType: typeName(event) } : null);
  const byId = /HistoryEvent\(id: (\d+)/.exec(message);
  if (byId) {
    const eventId = Number(byId[1]);
    return found(events.find((e) => Number(e.eventId) === eventId)) ?? { eventId, eventType: null };
  }
  const activityId = /Activity id of scheduled event '([^']*)'/.exec(message)?.[1];
  if (activityId !== undefined) return found(events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === activityId));
  const timerId = /Timer id of (?:scheduled|started) event '([^']*)'/i.exec(message)?.[1];
  if (timerId !== undefined) return found(events.find((e) => e.timerStartedEventAttributes?.timerId === timerId));
  const activityType = /Activity type of scheduled event '([^']*)'/.exec(message)?.[1];
  if (activityType !== undefined) return found(events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType));
  // A `patched()` marker the code no longer asks for: the marker event recording that patch id.
  const patchId = /patch marker encountered for change ([^\s,]+?)[,.]?(?:\s|$)/.exec(message)?.[1];
  if (patchId !== undefined) return found(events.find((e) => isPatchMarker(e, patchId)));
  return null;
}

/** Whether `event` is the marker Temporal records for `patched(patchId)` (its `core_patch` details hold the id). */
function isPatchMarker(event: HistoryEvent, patchId: string): boolean {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_patch') return false;
  return Object.values(marker.details ?? {}).some((payloads) =>
    (payloads.payloads ?? []).some((p) => p.data != null && Buffer.from(p.data).toString('utf8').includes(JSON.stringify(patchId))),
  );
}

/**
 * The core of Temporal's replay error text: the inner failure message when the text wraps one
 * (`... Failure { message: "[TMPRL1100] Nondeterminism error: ..." ...`), else the text; on one line.
 */
export function explanation(text: string): string {
  const inner = /Failure \{ message: "((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  return (inner ?? text).replace(/\\(.)/g, '$1').replace(/\s+/g, ' ').trim();
}

/**
 * Replays each history against a workflow bundle with Temporal's replayer (`Worker.runReplayHistories`), one
 * history at a time and in order, without contacting the engine: the code runs again from the history's
 * first event and every decision it makes (activities scheduled, timers, child workflows, patches, ...) is
 * compared with what the history records. Sink calls (hooks, traces) are not made during replay.
 * `workflowCode` is the bundle as `Worker.create({ workflowBundle: { code } })` takes it (`bundleWorkflows`,
 * or a build's bundle).
 * Yields one outcome per history, as soon as it is replayed: `ok`, or the kind of failure with Temporal's
 * explanation and the first mismatching event.
 * @throws the replayer's error when the bundle cannot be loaded at all (nothing was replayed then).
 */
export async function* replayHistories(
  workflowCode: string,
  histories: AsyncIterable<ReplayHistory> | Iterable<ReplayHistory>,
  options: ReplayOptions = {},
): AsyncGenerator<ReplayOutcome> {
  // Core's warning for each failing workflow task is what a replay that does not match looks like: not repeated.
  if (options.logger) installTemporalRuntime(options.logger, undefined, 'ERROR');
  const pending: ReplayHistory[] = [];
  async function* feed() {
    for await (const h of histories) {
      pending.push(h);
      yield { workflowId: h.workflowId, history: h.history };
    }
  }
  const events = new WorkerEvents(undefined, () => {});
  const results = Worker.runReplayHistories(
    {
      workflowBundle: { code: workflowCode },
      sinks: { ...untracedSinks(), ...skeinSinks(events, options.logger ?? pino({ level: 'silent' })) },
      replayName: 'skein-replay',
    },
    feed(),
  );
  for await (const result of results) {
    const h = pending.shift();
    if (!h) continue;
    const { history, ...run } = h;
    if (!result.error) {
      yield { ...run, ok: true };
      continue;
    }
    const message = explanation(result.error.message);
    yield {
      ...run,
      ok: false,
      // Temporal's DeterminismViolationError (by name: it lives in the workflow package, not loaded here).
      kind: result.error.name === 'DeterminismViolationError' ? 'nondeterminism' : 'failure',
      message,
      event: mismatchedEvent(message, history),
    };
  }
}
