/**
 * What the query and update routes need to know about a workflow's handlers: an unknown query or update is a 404
 * naming the handlers the workflow registers; no worker answering is a 504.
 */
import { isGrpcDeadlineError, type Client } from '@temporalio/client';
import { GRPC } from './engine.js';

/** Names Temporal's SDKs register on every workflow (`__stack_trace`, `__temporal_workflow_metadata`, ...). */
const isBuiltIn = (name: string) => name.startsWith('__');

/**
 * The query names listed in Temporal's "unknown query" failure (`... Registered queries: [a b c]` from the
 * TypeScript SDK, `KnownQueryTypes=[a b c]` from the server), built-ins left out.
 * @returns the names, or undefined when `message` is not an unknown-query failure.
 */
export function unknownQueryNames(message: string): string[] | undefined {
  const m = /(?:Registered queries|KnownQueryTypes)\s*[:=]\s*\[([^\]]*)\]/i.exec(message);
  if (!m) return undefined;
  return m[1]!
    .split(/[\s,]+/)
    .filter((n) => n !== '' && !isBuiltIn(n))
    .sort();
}

/** Whether an update failure is the SDK's "no handler" rejection (`No registered handler for update: x`). */
export function isUnknownUpdate(message: string): boolean {
  return /no registered handler for update/i.test(message);
}

/** How many of a run's latest history events are searched for an update's acceptance. */
const UPDATE_ACCEPTANCE_EVENTS = 200;

/**
 * Whether the engine accepted update `updateId` of the run (its `WorkflowExecutionUpdateAccepted` event is among the
 * run's latest events), as opposed to a rejection by the workflow's validator, which leaves nothing in the history.
 * Bounded by `deadline` (epoch ms). Undefined when the history could not be read.
 */
export async function updateAccepted(client: Client, workflowId: string, runId: string, updateId: string, deadline: number): Promise<boolean | undefined> {
  try {
    const page = await client.withDeadline(deadline, () =>
      client.workflowService.getWorkflowExecutionHistoryReverse({
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        maximumPageSize: UPDATE_ACCEPTANCE_EVENTS,
      }),
    );
    return (page.history?.events ?? []).some((e) => {
      const accepted = e.workflowExecutionUpdateAcceptedEventAttributes;
      return accepted?.acceptedRequest?.meta?.updateId === updateId || accepted?.protocolInstanceId === updateId;
    });
  } catch {
    return undefined;
  }
}

/**
 * The update names a running workflow registers, read with the `__temporal_workflow_metadata` query that every
 * Temporal SDK answers, bounded by `deadline` (epoch ms).
 * @returns the names (built-ins left out, sorted), or undefined when they could not be read in time.
 */
export async function registeredUpdateNames(client: Client, workflowId: string, runId: string | undefined, deadline: number): Promise<string[] | undefined> {
  try {
    const meta = await client.withDeadline(deadline, () =>
      client.workflow.getHandle(workflowId, runId).query<{ definition?: { updateDefinitions?: Array<{ name?: string }> } }>('__temporal_workflow_metadata'),
    );
    return (meta.definition?.updateDefinitions ?? [])
      .map((d) => d.name ?? '')
      .filter((n) => n !== '' && !isBuiltIn(n))
      .sort();
  } catch {
    return undefined;
  }
}

/**
 * Whether an engine error is its refusal of a query because no worker has polled the run's task queue lately: a
 * FAILED_PRECONDITION saying "no poller seen", anywhere in the cause chain (the client wraps the gRPC error).
 */
export function isNoPollerRefusal(err: unknown): boolean {
  for (let e = err as { code?: unknown; details?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === GRPC.FAILED_PRECONDITION && [e.details, e.message].some((text) => typeof text === 'string' && /no poller seen/i.test(text))) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Whether an engine error means nobody answered in time: the gRPC deadline passed (anywhere in the cause chain,
 * so the SDK's `WorkflowUpdateRPCTimeoutOrCancelledError` wrapping it counts), or the call failed otherwise only
 * once its `deadline` (epoch ms) was reached, as the engine's own timeouts do. A client disconnect (`signal`
 * aborted) never counts.
 */
export function isHandlerTimeout(err: unknown, deadline: number, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  return isGrpcDeadlineError(err) || Date.now() >= deadline - 100;
}

/** A human list of handler names for an error message: `"a", "b"`, or `none`. */
export function nameList(names: string[] | undefined): string {
  if (names === undefined) return 'unknown (they could not be read)';
  return names.length === 0 ? 'none' : names.map((n) => `"${n}"`).join(', ');
}
