import type { SerializedError } from './types.js';

/** Maximum depth of an error cause chain in events and traces (10 levels, as traces record them: docs/reference/trace-format.md). */
export const MAX_CAUSE_DEPTH = 10;

/** Serializes an error and its cause chain (cut at `MAX_CAUSE_DEPTH` levels); no stack traces. */
export function serializeError(error: unknown, depth = 1): SerializedError {
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : JSON.stringify(error));
  const out: SerializedError = { name: e.name, message: e.message };
  const type = (e as { type?: unknown }).type;
  if (typeof type === 'string') out.type = type;
  if (e.cause !== undefined && e.cause !== null) {
    if (depth >= MAX_CAUSE_DEPTH) out.truncated = true;
    else out.cause = serializeError(e.cause, depth + 1);
  }
  return out;
}
