import type { temporal as T } from '@temporalio/proto';
import { temporal } from './proto.js';
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
