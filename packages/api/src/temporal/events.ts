import type { temporal as T } from '@temporalio/proto';
import { temporal, toNumber } from './proto.js';
import { decodePayload } from './payloads.js';

/** Reflection type of a history event (`@temporalio/proto` is a protobufjs reflection root). */
const HistoryEvent = temporal.api.history.v1.HistoryEvent as unknown as {
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
};

function isPayloadObject(v: Record<string, unknown>): boolean {
  if (!('metadata' in v) || typeof v.metadata !== 'object' || v.metadata === null) return false;
  return Object.keys(v).every((k) => k === 'metadata' || k === 'data' || k === 'externalPayloads');
}

function decodePayloadObject(v: Record<string, unknown>): unknown {
  const metadata: Record<string, Uint8Array> = {};
  for (const [k, b64] of Object.entries(v.metadata as Record<string, string>)) metadata[k] = Buffer.from(String(b64), 'base64');
  return decodePayload({ metadata, data: Buffer.from(typeof v.data === 'string' ? v.data : '', 'base64') });
}

const DURATION_KEY = /(Timeout|Backoff|Interval|Duration)$/;

/** Rewrites one value of a `toObject` tree (which is fresh, so it is changed in place). */
function convert(value: unknown, key: string, decode: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = convert(value[i], key, decode);
    return value;
  }
  const obj = value as Record<string, unknown>;
  let n = 0;
  let timeLike = true;
  for (const k in obj) {
    n++;
    if (k !== 'seconds' && k !== 'nanos') timeLike = false;
  }
  if (n === 0) return DURATION_KEY.test(key) ? '0s' : obj;
  if (timeLike) {
    const seconds = Number(obj.seconds ?? 0);
    const nanos = Number(obj.nanos ?? 0);
    if (key.endsWith('Time')) return new Date(seconds * 1000 + Math.floor(nanos / 1e6)).toISOString();
    return `${seconds + nanos / 1e9}s`;
  }
  if (decode && isPayloadObject(obj)) return decodePayloadObject(obj);
  for (const k in obj) obj[k] = convert(obj[k], k, decode);
  return obj;
}

const TYPE_PREFIX = 'EVENT_TYPE_';

/**
 * Renders one engine history event as JSON in Temporal's shape: `eventId` (and every int64) a number, `eventTime` ISO 8601,
 * `eventType` its enum name (`EVENT_TYPE_WORKFLOW_EXECUTION_STARTED`), attributes under their proto field
 * name; timestamps ISO, durations `"<n>s"`, bytes base64. With `decodePayloads`, every payload is replaced by
 * its value decoded with the default payload converter.
 *
 * Right after `eventType` it adds `eventTypeName` (the enum name without `EVENT_TYPE_`, e.g.
 * `ACTIVITY_TASK_SCHEDULED`) and, when `stepName` is given (activity events, see `step-names.ts`), `stepName`
 * (the fields the seed system's clients read).
 */
export function eventToJson(event: T.api.history.v1.IHistoryEvent, decodePayloads: boolean, stepName?: string): Record<string, unknown> {
  const obj = HistoryEvent.toObject(event, { longs: Number, enums: String, bytes: String, defaults: false });
  const converted = convert(obj, '', decodePayloads) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in converted) {
    out[k] = converted[k];
    if (k === 'eventType') {
      const name = String(converted[k]);
      out.eventTypeName = name.startsWith(TYPE_PREFIX) ? name.slice(TYPE_PREFIX.length) : name;
      if (stepName !== undefined) out.stepName = stepName;
    }
  }
  return out;
}

/** An event rendered for a response: its id and its JSON text ({@link eventToJson}'s object, serialized). */
export interface RenderedEvent {
  eventId: number;
  /** JSON text of the event, as `JSON.stringify(eventToJson(…))` gives it. */
  json: string;
}

/** What was rendered of one engine event, per payload mode; the step name it was rendered with is part of the key. */
interface Renders {
  plain?: { stepName: string | undefined; json: string };
  decoded?: { stepName: string | undefined; json: string };
}

/**
 * Renders of engine events, keyed by the event object itself: the engine pages the API keeps (history-page-cache)
 * hand the same event objects to every request cut from them, so each event is converted and serialized once per
 * payload mode however many clients page through it; the renders go when their page is evicted.
 */
const renders = new WeakMap<T.api.history.v1.IHistoryEvent, Renders>();

/**
 * {@link eventToJson} serialized to JSON text, remembered per event object and payload mode (an engine event never
 * changes, and a step name, once known, is always the same for that event). `eventId` is the event's id as a number.
 */
export function renderEvent(event: T.api.history.v1.IHistoryEvent, decodePayloads: boolean, stepName?: string): RenderedEvent {
  let entry = renders.get(event);
  if (!entry) {
    entry = {};
    renders.set(event, entry);
  }
  const mode = decodePayloads ? 'decoded' : 'plain';
  let hit = entry[mode];
  if (!hit || hit.stepName !== stepName) {
    hit = { stepName, json: JSON.stringify(eventToJson(event, decodePayloads, stepName)) };
    entry[mode] = hit;
  }
  return { eventId: toNumber(event.eventId), json: hit.json };
}
