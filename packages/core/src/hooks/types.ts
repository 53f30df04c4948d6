/**
 * Worker-side hooks (README, "Hooks"): payload shapes. All times are epoch milliseconds.
 */

/** `workflowDetails` of every workflow and activity event. */
export interface WorkflowDetails {
  attempt: number;
  continuedFromExecutionRunId: string | null;
  firstExecutionRunId: string;
  parent: { runId: string; workflowId: string; namespace: string } | null;
  root: { runId: string; workflowId: string } | null;
  runId: string;
  /** Start of this run, epoch ms. */
  runStartTime: number;
  /** Start of the first run of the chain, epoch ms. */
  startTime: number;
  workflowId: string;
  workflowType: string;
}

/** `outputActivityKind` values: `internal_step` is an activity that is neither a step nor an evaluator. */
export type OutputActivityKind = 'step' | 'evaluator' | 'internal_step';

/** `activityInfo` of activity events. */
export interface ActivityDetails {
  activityId: string;
  /** `<workflowName>#<activityName>` (package rule 10, docs/package-rules.md). */
  activityType: string;
  /** The step or evaluator name. */
  name: string;
  attempt: number;
  taskQueue: string;
  /** When this attempt was scheduled, epoch ms. */
  scheduledTime: number;
}

/**
 * What an activity cost, summed from the events emitted while it ran: `cost:*` events' `cost` (USD),
 * `http:request` events, and `cost:llm:request` tokens.
 */
export interface Aggregations {
  totalCost: number;
  httpCalls: number;
  tokens: { input: number; output: number; total: number };
}

/** A serialized error: name, message, Temporal failure type, and a cause chain cut at 10 levels. */
export interface SerializedError {
  name: string;
  message: string;
  type?: string;
  cause?: SerializedError;
  /** Set on the 10th level when the chain went deeper. */
  truncated?: true;
}

/** Fields of every hook payload. */
export interface BaseEvent {
  /** Unique id of this event (UUID). */
  eventId: string;
  /** When it happened, epoch ms. */
  eventDate: number;
}

/** Payload of `onWorkflowStart`, `onWorkflowEnd`, `onWorkflowError`. */
export interface WorkflowEvent extends BaseEvent {
  workflowDetails: WorkflowDetails;
  /** The workflow input (start) or output (end). */
  input?: unknown;
  output?: unknown;
  error?: SerializedError;
}

/** Payload of `onActivityStart`, `onActivityEnd`, `onActivityError`. */
export interface ActivityEvent extends WorkflowEvent {
  activityInfo: ActivityDetails;
  outputActivityKind: OutputActivityKind;
  /** End and Error only. */
  aggregations?: Aggregations;
}

/** Payload of `onError`, by `source`: `workflow`, `activity` or `runtime`. */
export type ErrorEvent =
  | (BaseEvent & { source: 'workflow'; workflowDetails: WorkflowDetails; error: SerializedError })
  | (BaseEvent & {
      source: 'activity';
      workflowDetails: WorkflowDetails;
      activityInfo: ActivityDetails;
      outputActivityKind: OutputActivityKind;
      error: SerializedError;
    })
  | (BaseEvent & { source: 'runtime'; error: SerializedError });

/** Envelope of every `on()` event; the last three members are absent outside an activity. */
export interface CustomEvent<P = unknown> extends BaseEvent {
  name: string;
  payload: P;
  outputActivityKind?: OutputActivityKind;
  workflowDetails?: WorkflowDetails;
  activityInfo?: ActivityDetails;
}

/** Payload of `http:request` (emitted by `fetch` from `@skein/core`). */
export interface HttpRequestPayload {
  method: string;
  url: string;
  /** HTTP status, or null when the request failed before a response. */
  status: number | null;
  durationMs: number;
  error?: string;
}

/** Payload of `cost:http:request` and the cost part of `cost:llm:request`: `cost` in USD. */
export interface CostPayload {
  cost: number;
  currency: 'USD';
}

/** Payload of `cost:llm:request` (emitted by `reportLlmUsage`). */
export interface LlmUsagePayload extends CostPayload {
  model: string;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}
