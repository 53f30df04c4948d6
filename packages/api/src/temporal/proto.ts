import protoModule from '@temporalio/proto';

/** Temporal's generated protobuf namespace (`@temporalio/proto` is CommonJS, so it is read off the default export). */
export const temporal = protoModule.temporal;
export type { temporal as TemporalTypes } from '@temporalio/proto';

/** A protobuf int64 (a `Long`, a number or a decimal string) as a JS number, without a string round trip. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { toNumber?: unknown }).toNumber === 'function') return (v as { toNumber(): number }).toNumber();
  return Number(v ?? 0);
}
