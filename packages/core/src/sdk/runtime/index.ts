/**
 * `@skein/core/sdk/runtime`: what code running in a step or evaluator (an activity on the worker) can ask of the
 * runtime: `Context` (who is running), `Event` (custom hook events) and `Tracing` (events in the run's trace).
 * Node only: importing it into workflow code is a validation error (`workflow/no-node-modules`).
 */
import { Context as ActivityContext, type Info } from '@temporalio/activity';
import { emit, listenerCount } from '../../hooks/registry.js';
import { currentActivityScope, type TraceEvent } from '../../hooks/scope.js';
import type { WorkflowDetails } from '../../hooks/types.js';

/** What `Context.getActivityContext()` answers. */
export interface ActivityContextInfo {
  /** Temporal's info of the running activity: `activityId`, `activityType`, `attempt`, `workflowExecution: { workflowId, runId }`, … */
  activityInfo: Info;
  /** The run that scheduled the activity (the same `workflowDetails` hook events carry). */
  workflowDetails: WorkflowDetails;
  /** Path of the file of the workflow that scheduled the activity, when the worker knows it. */
  workflowFilename?: string;
}

/** The runtime context of the code running now. */
export const Context = {
  /**
   * The running activity's context: its Temporal info (ids of the activity and of the run that scheduled it) and
   * that run's `workflowDetails`.
   * @returns null outside a step or evaluator running on a worker (plain Node, unit tests, workflow code).
   */
  getActivityContext(): ActivityContextInfo | null {
    const scope = currentActivityScope();
    if (!scope) return null;
    let activityInfo: Info;
    try {
      activityInfo = ActivityContext.current().info;
    } catch {
      return null;
    }
    return { activityInfo, workflowDetails: scope.workflowDetails, ...(scope.workflowFilename ? { workflowFilename: scope.workflowFilename } : {}) };
  },
};

/** Custom hook events. */
export const Event = {
  /**
   * Fires the custom hook event `name`: every hook file's `on(name, handler)` receives `{ name, payload, eventId,
   * eventDate }`, plus `workflowDetails`, `activityInfo` and `outputActivityKind` when emitted in a step.
   * Handlers run asynchronously; their errors are logged, never thrown here.
   * @returns whether any handler listens to `name`.
   */
  emit(name: string, payload?: unknown): boolean {
    const listening = listenerCount(name) > 0;
    emit(name, payload);
    return listening;
  },
};

/** Base of the trace attributes (`Tracing.Attribute.*`): `type` names the attribute. */
class BaseAttribute {
  constructor(readonly type: string) {}
}

/** Counts one HTTP request of an event. */
class HTTPRequestCount extends BaseAttribute {
  static readonly TYPE = 'http:request:count';
  constructor(
    readonly url: string,
    readonly requestId: string,
  ) {
    super(HTTPRequestCount.TYPE);
  }
}

/** The cost (USD) of one HTTP request of an event. */
class HTTPRequestCost extends BaseAttribute {
  static readonly TYPE = 'http:request:cost';
  constructor(
    readonly url: string,
    readonly requestId: string,
    readonly total = 0,
  ) {
    super(HTTPRequestCost.TYPE);
  }
}

/** LLM usage of an event: each `addUsage({ type, ppm, amount })` adds `amount` tokens priced `ppm` USD per million. */
class LLMUsage extends BaseAttribute {
  static readonly TYPE = 'llm:usage';
  usage: Array<{ type: string; ppm: number; amount: number; total: number }> = [];
  /** USD. */
  total = 0;
  tokensUsed = 0;
  constructor(readonly modelId: string) {
    super(LLMUsage.TYPE);
  }
  addUsage({ type, ppm, amount }: { type: string; ppm: number; amount: number }): void {
    // Integer micro-dollars keep the sums exact for the usual token counts and prices.
    const total = Math.round(amount * ppm) / 1_000_000;
    this.usage.push({ type, ppm, amount, total });
    this.total = Math.round((this.total + total) * 1_000_000) / 1_000_000;
    this.tokensUsed += amount;
  }
}

/** A trace attribute instance. */
export type TraceAttribute = HTTPRequestCount | HTTPRequestCost | LLMUsage;

function record(event: Omit<TraceEvent, 'at'>): void {
  const scope = currentActivityScope();
  if (!scope) return;
  (scope.traceEvents ??= []).push({ ...event, at: Date.now() });
}

/**
 * Events inside a step's or evaluator's trace node: each started event becomes a child node of the activity's
 * node (`kind`, `name`, `input` = start details, `output` = end details or `error` = error details, with any
 * attributes). Outside an activity the calls do nothing.
 */
export const Tracing = {
  Attribute: { HTTPRequestCount, HTTPRequestCost, LLMUsage },
  /** Opens event `id` (unique in the activity). */
  addEventStart({ id, kind, name, details }: { id: string; kind: string; name: string; details?: unknown }): void {
    record({ action: 'start', id, kind, name, details });
  },
  /** Closes event `id` successfully with `details` as its output. */
  addEventEnd({ id, details }: { id: string; details?: unknown }): void {
    record({ action: 'end', id, details });
  },
  /** Closes event `id` as failed with `details` as its error. */
  addEventError({ id, details }: { id: string; details?: unknown }): void {
    record({ action: 'error', id, details: details instanceof Error ? { name: details.name, message: details.message } : details });
  },
  /** Adds an attribute (`Tracing.Attribute.*`) to event `eventId`. */
  addEventAttribute({ eventId, attribute }: { eventId: string; attribute: TraceAttribute }): void {
    record({ action: 'attribute', id: eventId, details: { ...attribute } });
  },
};
