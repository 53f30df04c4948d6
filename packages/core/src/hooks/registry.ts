import { randomUUID } from 'node:crypto';
import { currentActivityScope } from './scope.js';
import type { ActivityEvent, CostPayload, CustomEvent, ErrorEvent, LlmUsagePayload, WorkflowEvent } from './types.js';

/** Lifecycle hook names and their payloads (README, "Hooks"). */
export interface LifecycleHooks {
  onWorkflowStart: WorkflowEvent;
  onWorkflowEnd: WorkflowEvent;
  onWorkflowError: WorkflowEvent;
  onActivityStart: ActivityEvent;
  onActivityEnd: ActivityEvent;
  onActivityError: ActivityEvent;
  onError: ErrorEvent;
  onBeforeStart: { eventId: string; eventDate: number; catalog: string; workflows: string[] };
}

/** A hook callback; may be async. Its errors are logged, never propagated. */
export type HookCallback<P> = (payload: P) => void | Promise<void>;

/** Where hook failures are reported; the worker sets its logger here. */
export type HookErrorReporter = (error: unknown, hook: string) => void;

interface Registry {
  lifecycle: Map<keyof LifecycleHooks, Set<HookCallback<never>>>;
  custom: Map<string, Set<HookCallback<CustomEvent>>>;
  pending: Set<Promise<void>>;
  report: HookErrorReporter;
}

/** Where hook failures go until the worker sets its logger: stderr. */
const defaultReporter: HookErrorReporter = (error, hook) => console.error(`[skein] hook ${hook} failed:`, error);

const KEY = Symbol.for('skein.hooks');
const g = globalThis as unknown as Record<symbol, Registry | undefined>;
/** One registry per process, shared by every copy of `@skein/core` (hook files and the worker may load different copies). */
const registry: Registry = (g[KEY] ??= {
  lifecycle: new Map(),
  custom: new Map(),
  pending: new Set(),
  report: defaultReporter,
});

function subscribe<K extends keyof LifecycleHooks>(name: K, cb: HookCallback<LifecycleHooks[K]>): () => void {
  let set = registry.lifecycle.get(name);
  if (!set) registry.lifecycle.set(name, (set = new Set()));
  set.add(cb);
  return () => set.delete(cb);
}

function invoke<P>(callbacks: Iterable<HookCallback<P>>, payload: P, hook: string): void {
  for (const cb of callbacks) {
    const p = (async () => cb(payload))().catch((err: unknown) => registry.report(err, hook));
    registry.pending.add(p);
    void p.finally(() => registry.pending.delete(p));
  }
}

/** Runs on every workflow start (not during replay; never for `$catalog`). Returns an unsubscribe function. */
export const onWorkflowStart = (cb: HookCallback<WorkflowEvent>) => subscribe('onWorkflowStart', cb);
/** Runs when a workflow completes; `output` is its result. */
export const onWorkflowEnd = (cb: HookCallback<WorkflowEvent>) => subscribe('onWorkflowEnd', cb);
/** Runs when a workflow fails; `error` is the serialized failure. */
export const onWorkflowError = (cb: HookCallback<WorkflowEvent>) => subscribe('onWorkflowError', cb);
/** Runs before every activity attempt. */
export const onActivityStart = (cb: HookCallback<ActivityEvent>) => subscribe('onActivityStart', cb);
/** Runs after an activity attempt succeeded, with `output` and `aggregations`. */
export const onActivityEnd = (cb: HookCallback<ActivityEvent>) => subscribe('onActivityEnd', cb);
/** Runs after an activity attempt failed, with `error` and `aggregations`. */
export const onActivityError = (cb: HookCallback<ActivityEvent>) => subscribe('onActivityError', cb);
/** Runs on every error: `source` `workflow`, `activity` or `runtime` (worker errors). */
export const onError = (cb: HookCallback<ErrorEvent>) => subscribe('onError', cb);
/** Runs once before the worker starts polling (awaited). */
export const onBeforeStart = (cb: HookCallback<LifecycleHooks['onBeforeStart']>) => subscribe('onBeforeStart', cb);

/** Listens to a named event: `http:request`, `cost:http:request`, `cost:llm:request`, or any `emit()`ted name. */
export function on<P = unknown>(name: string, cb: HookCallback<CustomEvent<P>>): () => void {
  let set = registry.custom.get(name);
  if (!set) registry.custom.set(name, (set = new Set()));
  set.add(cb as HookCallback<CustomEvent>);
  return () => set.delete(cb as HookCallback<CustomEvent>);
}

/**
 * Emits a named event to its `on()` listeners. Inside an activity the envelope carries `workflowDetails`,
 * `activityInfo` and `outputActivityKind`, and `cost:*` / `http:request` events add to the activity's
 * `aggregations`. Never throws; listeners run asynchronously.
 */
export function emit<P>(name: string, payload: P): void {
  const scope = currentActivityScope();
  if (scope) {
    const agg = scope.aggregations;
    if (name === 'http:request') agg.httpCalls += 1;
    if (name.startsWith('cost:')) agg.totalCost += Number((payload as Partial<CostPayload>)?.cost) || 0;
    if (name === 'cost:llm:request') {
      const u = payload as Partial<LlmUsagePayload>;
      agg.tokens.input += Number(u.inputTokens) || 0;
      agg.tokens.output += Number(u.outputTokens) || 0;
      agg.tokens.total += Number(u.totalTokens) || 0;
    }
  }
  const listeners = registry.custom.get(name);
  if (!listeners?.size) return;
  const event: CustomEvent<P> = {
    eventId: randomUUID(),
    eventDate: Date.now(),
    name,
    payload,
    ...(scope ? { outputActivityKind: scope.kind, workflowDetails: scope.workflowDetails, activityInfo: scope.activityInfo } : {}),
  };
  invoke(listeners as Set<HookCallback<CustomEvent<P>>>, event, name);
}

/** How many `on(name)` listeners there are now. */
export function listenerCount(name: string): number {
  return registry.custom.get(name)?.size ?? 0;
}

/**
 * Delivers a lifecycle event to its hooks (used by the worker). `onBeforeStart` is awaited; others are not.
 * Hook errors go to the reporter, never to the caller.
 */
export async function dispatchLifecycle<K extends keyof LifecycleHooks>(name: K, payload: LifecycleHooks[K]): Promise<void> {
  const set = registry.lifecycle.get(name);
  if (!set?.size) return;
  if (name === 'onBeforeStart') {
    for (const cb of set) {
      try {
        await (cb as HookCallback<LifecycleHooks[K]>)(payload);
      } catch (err) {
        registry.report(err, name);
      }
    }
    return;
  }
  invoke(set as Set<HookCallback<LifecycleHooks[K]>>, payload, name);
}

/** Sets where hook failures are reported (the worker's logger). */
export function setHookErrorReporter(report: HookErrorReporter): void {
  registry.report = report;
}

/** Waits for hook callbacks still running, at most `timeoutMs` (the worker gives them 30 s at shutdown). Resolves to how many were still pending. */
export async function drainHooks(timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (registry.pending.size > 0 && Date.now() < deadline) {
    await Promise.race([Promise.allSettled([...registry.pending]), new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())))]);
  }
  return registry.pending.size;
}

/** True when anyone listens to lifecycle hook `name` (lets the worker skip building payloads). */
export function hasHooks(name: keyof LifecycleHooks): boolean {
  return (registry.lifecycle.get(name)?.size ?? 0) > 0;
}

/**
 * Removes every hook and listener, forgets the callbacks still running (`drainHooks` no longer waits for them) and
 * puts back the default error reporter: the registry as a process starts with it (tests).
 */
export function clearHooks(): void {
  registry.lifecycle.clear();
  registry.custom.clear();
  registry.pending.clear();
  registry.report = defaultReporter;
}
