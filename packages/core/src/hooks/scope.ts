import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActivityDetails, Aggregations, OutputActivityKind, WorkflowDetails } from './types.js';

/** What is known while an activity runs: who runs it, and what it has cost so far. */
export interface ActivityScope {
  workflowDetails: WorkflowDetails;
  activityInfo: ActivityDetails;
  kind: OutputActivityKind;
  aggregations: Aggregations;
  /** The file of the workflow that scheduled the activity, when the worker knows it. */
  workflowFilename?: string;
  /** Trace events the activity added (`Tracing` of `@skein/core/sdk/runtime`), in order; the worker files them in its trace. */
  traceEvents?: TraceEvent[];
}

/** One `Tracing` call of an activity: an event opened, closed, failed, or given an attribute. `at` is epoch ms. */
export interface TraceEvent {
  action: 'start' | 'end' | 'error' | 'attribute';
  id: string;
  at: number;
  kind?: string;
  name?: string;
  details?: unknown;
}

const KEY = Symbol.for('skein.activityScope');
const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<ActivityScope> | undefined>;
/** One store per process, shared by every copy of `@skein/core`. */
const storage: AsyncLocalStorage<ActivityScope> = (g[KEY] ??= new AsyncLocalStorage<ActivityScope>());

/** Fresh, all-zero aggregations. */
export function emptyAggregations(): Aggregations {
  return { totalCost: 0, httpCalls: 0, tokens: { input: 0, output: 0, total: 0 } };
}

/** Runs `fn` inside an activity scope (the worker does this around every activity). */
export function runInActivityScope<T>(scope: ActivityScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the activity running now, if any. */
export function currentActivityScope(): ActivityScope | undefined {
  return storage.getStore();
}
