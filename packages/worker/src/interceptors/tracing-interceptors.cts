/**
 * Workflow interceptor module compiled into every workflow bundle (workflow side, in Temporal's sandbox):
 * OpenTelemetry's workflow interceptors (`@temporalio/interceptors-opentelemetry`), active for a run only when the
 * worker that started it has tracing on. So one bundle (one build, one build ID) serves with tracing on or off,
 * and a run is traced or not for its whole life, on whichever worker replays it:
 * - on a run's first workflow task, the worker's setting decides: `globalThis.__skeinWorkflowTracing === true`,
 *   which the worker sets in the bundle it runs when tracing is on (`withWorkflowTracing`). A traced run records
 *   Temporal's SDK flag "OpenTelemetry interceptors instrument all methods" (flag 6, the one OpenTelemetry's
 *   interceptors of this SDK version set themselves) in that task;
 * - replaying that task (a cache eviction, another worker), the flag in the history decides, not the worker's
 *   setting: tracing changes when commands' promises settle (the interceptors await around each call), and the
 *   replay must take the same path as the original run.
 * Until a run's first inbound call decides, every method passes through; the OpenTelemetry modules are evaluated
 * only for traced runs (untraced runs pay nothing but the bundle's size).
 * Written with erasable TypeScript only (CommonJS, so the OpenTelemetry modules load lazily), like the stub loader.
 */
import type {
  Next,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowInternalsInterceptor,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

const { workflowInfo } = require('@temporalio/workflow') as typeof import('@temporalio/workflow');
const { getActivator } = require('@temporalio/workflow/lib/global-attributes') as typeof import('@temporalio/workflow/lib/global-attributes');
const { SdkFlags } = require('@temporalio/workflow/lib/flags') as typeof import('@temporalio/workflow/lib/flags');

/** The global the worker sets when tracing is on (`WORKFLOW_TRACING_GLOBAL` in `workflow-tracing.ts`). */
const TRACING_GLOBAL = '__skeinWorkflowTracing';

const INBOUND = ['execute', 'handleSignal', 'handleUpdate', 'validateUpdate', 'handleQuery'] as const;
const OUTBOUND = [
  'scheduleActivity',
  'scheduleLocalActivity',
  'startTimer',
  'startChildWorkflowExecution',
  'signalWorkflow',
  'continueAsNew',
  'startNexusOperation',
] as const;
/** Outbound calls that may come before a run's first inbound call (logging): they never decide. */
const OUTBOUND_UNDECIDED = ['getLogAttributes', 'getMetricTags'] as const;
const INTERNALS = ['activate', 'concludeActivation', 'dispose'] as const;

/** Whether this run is traced: decided once, at its first inbound call (see the module's comment). */
function traced(): boolean {
  const flag = SdkFlags.OpenTelemetryInterceptorsInstrumentsAllMethods;
  // hasFlag: while replaying, whether the history's task recorded it; otherwise true, recording it.
  if (workflowInfo().unsafe.isReplaying) return getActivator().hasFlag(flag);
  return (globalThis as Record<string, unknown>)[TRACING_GLOBAL] === true && getActivator().hasFlag(flag);
}

type AnyInterceptor = Record<string, ((input: unknown, next: Next<never, never>) => unknown) | undefined>;

/** An interceptor whose `methods` call `target()`'s method of the same name, or `next` when it has none. */
function delegating<T>(methods: readonly string[], target: () => AnyInterceptor | undefined): T {
  const out: Record<string, (input: unknown, next: (input: unknown) => unknown) => unknown> = {};
  for (const method of methods) {
    out[method] = (input, next) => {
      const t = target();
      const fn = t?.[method];
      return fn ? fn.call(t, input, next as never) : next(input);
    };
  }
  return out as T;
}

/** Temporal's interceptor factory: called once per workflow execution (each has its own module instances). */
function interceptors(): WorkflowInterceptors {
  let otel: { inbound?: AnyInterceptor; outbound?: AnyInterceptor; internals?: AnyInterceptor } | null | undefined;
  const decide = () => {
    if (otel === undefined) {
      const made = traced()
        ? (
            require('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors') as {
              interceptors(): { inbound: unknown[]; outbound: unknown[]; internals: unknown[] };
            }
          ).interceptors()
        : null;
      otel = made && {
        inbound: made.inbound[0] as AnyInterceptor,
        outbound: made.outbound[0] as AnyInterceptor,
        internals: made.internals[0] as AnyInterceptor,
      };
    }
    return otel;
  };
  const current = () => otel ?? undefined;
  return {
    inbound: [delegating<WorkflowInboundCallsInterceptor>(INBOUND, () => decide()?.inbound)],
    outbound: [
      {
        ...delegating<WorkflowOutboundCallsInterceptor>(OUTBOUND, () => decide()?.outbound),
        ...delegating<WorkflowOutboundCallsInterceptor>(OUTBOUND_UNDECIDED, () => current()?.outbound),
      },
    ],
    internals: [delegating<WorkflowInternalsInterceptor>(INTERNALS, () => current()?.internals)],
  };
}

module.exports = { interceptors };
