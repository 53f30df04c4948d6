import diagnostics_channel from 'node:diagnostics_channel';

/** The outcome of delivering one root run's trace to one destination. */
export interface TraceExportOutcome {
  destination: 'local' | 'remote';
  workflowId: string;
  runId: string;
  /** true once the trace is stored; false when this attempt failed (`final` says whether it is given up on). */
  ok: boolean;
  /** Remote only: no further attempt will be made (given up on, or the trace was refused). */
  final?: boolean;
  /** Why it failed (one line). */
  reason?: string;
}

/**
 * The diagnostics channel (`skein:trace-export`) every trace delivery outcome is published on: subscribe with
 * `diagnostics_channel.subscribe('skein:trace-export', (outcome) => …)` to count exports (metrics) without
 * touching the trace code. Messages are {@link TraceExportOutcome}s.
 */
export const TRACE_EXPORT_CHANNEL = 'skein:trace-export';

const channel = diagnostics_channel.channel(TRACE_EXPORT_CHANNEL);

/** Publishes one outcome on {@link TRACE_EXPORT_CHANNEL} (a no-op without subscribers). */
export function reportTraceExport(outcome: TraceExportOutcome): void {
  if (channel.hasSubscribers) channel.publish(outcome);
}
