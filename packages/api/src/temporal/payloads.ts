import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

type IPayload = temporal.api.common.v1.IPayload;

/**
 * Decodes one payload with Temporal's default payload converter into a JSON-safe value: binary payloads
 * become base64 strings; a payload the converter cannot read becomes `null` (never throws).
 */
export function decodePayload(payload: IPayload | null | undefined): unknown {
  if (!payload) return null;
  try {
    const value = defaultPayloadConverter.fromPayload<unknown>(payload);
    return jsonSafe(value);
  } catch {
    return null;
  }
}

/** The first payload of a `Payloads` list, decoded (workflow input and results are single-argument). */
export function decodeFirst(payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown {
  return decodePayload(payloads?.payloads?.[0]);
}

/** Makes a decoded value JSON-safe: `undefined` → null, bytes → base64, bigint → string. */
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return value.toString();
  return value;
}
