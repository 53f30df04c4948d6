/**
 * What the signal, query and update routes (docs/reference/api-contract.md, "Endpoints"; docs/api.md "Start, signal,
 * query, update") share: the handler arguments of a `{ payload }` body, and the latest run that a signal or
 * an update targets.
 */
import type Koa from 'koa';
import { ApiError } from './errors.js';
import { assertRunning, type ApiState, type Deps } from './route.js';
import { jsonSafe } from './temporal/payloads.js';
import { describeRun, type RunInfo } from './temporal/runs.js';

/**
 * Answers a query or update with the handler's value itself as the JSON body (`3`, `"pong"`, `{"x":1}`; clients
 * written for the seed system read it so), `Content-Type: application/json`; a handler that returned `undefined` answers 200
 * with an empty body. Bytes become base64 strings and bigints decimal strings (`jsonSafe`).
 */
export function sendHandlerValue(ctx: Koa.ParameterizedContext<ApiState>, value: unknown): void {
  ctx.status = 200;
  ctx.body = value === undefined ? '' : JSON.stringify(jsonSafe(value));
  ctx.type = 'application/json';
}

/**
 * The arguments passed to a signal, query or update handler for a request body `{ payload }`.
 * @param payload the body's `payload`, possibly absent.
 * @returns `[]` when `payload` is absent, else `[payload]`.
 */
export function handlerArgs<T>(payload: T | undefined): T[] {
  return payload === undefined ? [] : [payload];
}

/**
 * Describes the latest run of `workflowId`, asserts it is running and records its id in
 * `ctx.state.runId` (for the request log). Signals and updates go to the latest run and need it running;
 * queries do not use this (they may run on a closed run).
 * @param ctx the request context; its `state.runId` is set once the run is known to be running.
 * @param deps the route's deps (the Temporal client).
 * @param workflowId the workflow id from the path.
 * @returns the description of the latest run.
 * @throws ApiError `WorkflowNotFoundError` (404), `WorkflowExecutionAlreadyCompletedError` (409) when the
 *   latest run is closed.
 */
export async function latestRunningRun(ctx: Koa.ParameterizedContext<ApiState>, deps: Deps, workflowId: string): Promise<RunInfo> {
  const latest = await describeRun(deps.client, workflowId);
  assertRunning(latest.status, workflowId);
  ctx.state.runId = latest.runId;
  return latest;
}

/**
 * Refuses a query or update of a run that waits for its `startDelay`: the engine refuses a query until the first
 * workflow task (FAILED_PRECONDITION), and an update would start the run before its delay is over.
 * @throws ApiError `WorkflowNotStartedError` (409) naming when the run starts.
 */
export function assertStarted(run: RunInfo, workflowId: string): void {
  if (run.delayedUntil === null) return;
  throw new ApiError('WorkflowNotStartedError', {
    workflowId,
    message: `The run waits for its start delay until ${new Date(run.delayedUntil).toISOString()}; its queries and updates are answered once it starts`,
  });
}
