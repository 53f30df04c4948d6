import type { SerializedError } from '@skein/core';

/**
 * Kinds of trace nodes: the root workflow, child workflows, steps, evaluators and other activities (the built-in
 * HTTP request is an `internal_step`), a run's wait for its webhook (`webhook`, from the request's end to the
 * `resume` signal, output the signal's payload), and events a step added with `Tracing` (any other kind it names).
 */
export type TraceNodeKind = 'workflow' | 'child_workflow' | 'step' | 'evaluator' | 'internal_step' | 'webhook' | (string & {});

/** One node of a trace tree. Times are epoch ms. */
export interface TraceNode {
  kind: TraceNodeKind;
  /** Workflow type, or step / evaluator name. */
  name: string;
  status: 'running' | 'completed' | 'failed';
  workflowId?: string;
  runId?: string;
  /** Workflow nodes of a run a schedule started: the schedule's id (Temporal's `TemporalScheduledById`). */
  scheduleId?: string;
  /**
   * Workflow nodes of a run made by a reset: the run id of the execution before its first reset (Temporal's
   * `originalExecutionRunId`); absent otherwise.
   */
  originalRunId?: string;
  /** Nodes a step added with `Tracing`: the event's id, and the attributes added to it. */
  eventId?: string;
  attributes?: unknown[];
  /** Activity nodes: `<workflow>#<activity>` and the activity id. */
  activityType?: string;
  activityId?: string;
  /** Activity nodes: the attempt that produced the current status; earlier attempts' errors are in `retries`. */
  attempt?: number;
  retries?: Array<{ attempt: number; error: SerializedError }>;
  /**
   * Activity nodes: how many earlier attempts' errors are not in `retries` (of more than 20 attempts run on other
   * workers, the first 5 and the latest 15 are kept; an attempt that timed out reported no error).
   */
  retriesDropped?: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
  input?: unknown;
  output?: unknown;
  error?: SerializedError;
  children: TraceNode[];
}

/** The content of a local trace file: the tree of one root run. */
export interface TraceFile {
  version: 1;
  root: { workflowId: string; runId: string };
  updatedAt: number;
  tree: TraceNode;
}

/**
 * A remote trace destination (pluggable): receives each root run's finished trace, with the destinations the run
 * published in its memo (the S3 destination uploads to the object `destinations.remote` names). Skein ships the
 * S3 destination (`S3TraceExporter`). `export` should not throw; a rejection is logged.
 */
export interface TraceExporter {
  name: string;
  export(trace: TraceFile, destinations: { local?: string; remote?: string }): Promise<void>;
}
