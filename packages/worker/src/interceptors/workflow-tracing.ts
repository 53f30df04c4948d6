/**
 * Tracing of workflow code, decided when a worker starts rather than when its bundle is built: every bundle holds
 * OpenTelemetry's workflow interceptors behind a switch (`tracing-interceptors.cts`), and a worker with tracing on
 * turns it on in the code it runs (`withWorkflowTracing`). A build made once thus serves with tracing on or off,
 * with one bundle and one build ID.
 */
import { fileURLToPath } from 'node:url';
import type { InjectedSinks } from '@temporalio/worker';
import type { Sinks, WorkflowInfo } from '@temporalio/workflow';

/** The global of the workflow sandbox that turns tracing on for the runs a worker starts (read by `tracing-interceptors.cts`). */
export const WORKFLOW_TRACING_GLOBAL = '__skeinWorkflowTracing';

/** Absolute path of the workflow interceptor module every bundle includes: `.cjs` when compiled, the `.cts` source under a TypeScript runner. */
export function tracingInterceptorsModule(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './tracing-interceptors.cts' : './tracing-interceptors.cjs', import.meta.url));
}

const SOURCE_MAP = '\n//# sourceMappingURL=';

/**
 * The workflow bundle `code` with tracing turned on for the runs started on it: one statement setting
 * `WORKFLOW_TRACING_GLOBAL`, placed after the bundle's code and before its inline source map comment (which
 * Temporal reads from the end of the code), so no mapped line moves. The build ID is computed from the bundle as
 * built, never from this.
 */
export function withWorkflowTracing(code: string): string {
  const statement = `\n;globalThis.${WORKFLOW_TRACING_GLOBAL} = true;`;
  const at = code.lastIndexOf(SOURCE_MAP);
  return at === -1 ? code + statement + '\n' : code.slice(0, at) + statement + code.slice(at);
}

/**
 * The `exporter` sink of OpenTelemetry's workflow interceptors when tracing is off: drops the spans of runs that a
 * worker with tracing on started (Temporal logs an error for each call to a sink no worker registered).
 */
export function untracedSinks(): InjectedSinks<Sinks> {
  return { exporter: { export: { fn: () => {} } } };
}

/** The WorkflowInfo fields copied onto a workflow span: the run's identity, never its data. */
const SPAN_INFO_KEYS = [
  'workflowId',
  'runId',
  'workflowType',
  'taskQueue',
  'namespace',
  'attempt',
  'firstExecutionRunId',
  'continuedFromExecutionRunId',
] as const;

/**
 * What OpenTelemetry's workflow exporter (`makeWorkflowExporter`, which copies every field it is handed onto each
 * span) gets in place of the whole `WorkflowInfo`: the run's identity fields above that are set, and its parent's
 * and root's ids as `parentWorkflowId`/`parentRunId`/`rootWorkflowId`/`rootRunId`. Never the memo, search
 * attributes, `lastResult`, `lastFailure` or other nested data: span attributes go to a tracing backend that is
 * not meant to hold a run's values, and nested objects are not valid attribute values.
 */
export function workflowSpanInfo(info: WorkflowInfo): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key of SPAN_INFO_KEYS) {
    const value = info[key];
    if (typeof value === 'string' ? value !== '' : typeof value === 'number') out[key] = value as string | number;
  }
  if (info.parent) Object.assign(out, { parentWorkflowId: info.parent.workflowId, parentRunId: info.parent.runId });
  if (info.root) Object.assign(out, { rootWorkflowId: info.root.workflowId, rootRunId: info.root.runId });
  return out;
}
