/**
 * `sendHttpRequest` and `sendPostRequestAndAwaitWebhook` in workflow code: the request runs as the built-in
 * activity `HTTP_REQUEST_ACTIVITY_TYPE` (workflow code cannot do I/O), with the seed system's options
 * (`HTTP_REQUEST_ACTIVITY_OPTIONS`); the webhook then waits, durably, for the `resume` signal.
 */
import { condition, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { WEBHOOK_REQUEST_SUMMARY, WEBHOOK_RESUME_SIGNAL } from '@skein/names';
import {
  HTTP_REQUEST_ACTIVITY_OPTIONS,
  HTTP_REQUEST_ACTIVITY_TYPE,
  checkHttpRequest,
  type HttpRequestArgs,
  type SerializedFetchResponse,
  type WebhookRequestArgs,
} from '../shared/http-request.js';

type HttpActivity = Record<string, (args: HttpRequestArgs) => Promise<SerializedFetchResponse>>;

/**
 * Sends an HTTP request from workflow code through the built-in activity: 3 minutes start-to-close, 3 attempts
 * 15 s apart at first, `FatalError` never retried. The call is a step-like node of the run's trace and fires the
 * `http:request` hook event on the worker that sends it.
 * @returns the response serialized (`SerializedFetchResponse`): status always, redacted headers and the body when
 *   `responseOptions` asks.
 * @throws ValidationError at once, before anything is scheduled, for invalid arguments (a bad URL, a GET with a
 *   payload, …): the message names the argument.
 * @throws ActivityFailure whose cause is a `FatalError` when the host is unreachable or the answer is not 2xx.
 */
export async function sendHttpRequest(args: HttpRequestArgs): Promise<SerializedFetchResponse> {
  const checked = checkHttpRequest(args);
  const acts = proxyActivities<HttpActivity>(HTTP_REQUEST_ACTIVITY_OPTIONS as never);
  return acts[HTTP_REQUEST_ACTIVITY_TYPE]!(checked);
}

/**
 * POSTs `{ workflowId, payload }` to `url` (through the built-in HTTP activity), then waits, for as long as the
 * run lives, for the `resume` signal that `POST /workflow/{id}/feedback` sends, and answers the signal's payload.
 * The run's trace shows a `webhook` node from the request's end to the signal, whose output is that payload. Only
 * the first `resume` counts; later ones are ignored. Workflow code only.
 * @throws ValidationError for an invalid `url` or `headers`, before anything is sent.
 * @throws ActivityFailure (cause `FatalError`) when the POST fails.
 */
export async function sendPostRequestAndAwaitWebhook(args: WebhookRequestArgs): Promise<unknown> {
  const { workflowId } = workflowInfo();
  const checked = checkHttpRequest({ url: args?.url, method: 'POST', payload: { workflowId, payload: args?.payload }, headers: args?.headers });
  let received: { payload: unknown } | undefined;
  setHandler(defineSignal<[unknown?]>(WEBHOOK_RESUME_SIGNAL), (payload?: unknown) => {
    received ??= { payload };
  });
  const acts = proxyActivities<HttpActivity>({ ...HTTP_REQUEST_ACTIVITY_OPTIONS, summary: WEBHOOK_REQUEST_SUMMARY } as never);
  await acts[HTTP_REQUEST_ACTIVITY_TYPE]!(checked);
  await condition(() => received !== undefined);
  return received!.payload;
}
