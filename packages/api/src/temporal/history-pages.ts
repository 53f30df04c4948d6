import type { Client } from '@temporalio/client';
import type { temporal as T } from '@temporalio/proto';
import { engine } from './engine.js';

/**
 * Reads one run's history from its first event, one engine page (up to 1 000 events) at a time, in event order.
 * The caller stops early by leaving the loop. Each engine call goes through `engine()` (deadline, error mapping).
 * @throws ApiError as `engine()` maps engine failures (e.g. `WorkflowNotFoundError`, `InternalError`).
 */
export async function* historyPages(
  client: Client,
  workflowId: string,
  runId: string,
  signal: AbortSignal = new AbortController().signal,
): AsyncGenerator<T.api.history.v1.IHistoryEvent[]> {
  let token: Uint8Array | undefined;
  do {
    const res = await engine(workflowId, () =>
      client.withAbortSignal(signal, () =>
        client.workflowService.getWorkflowExecutionHistory({
          namespace: client.options.namespace,
          execution: { workflowId, runId },
          maximumPageSize: 1000,
          skipArchival: true,
          ...(token ? { nextPageToken: token } : {}),
        }),
      ),
    );
    yield res.history?.events ?? [];
    token = res.nextPageToken?.length ? res.nextPageToken : undefined;
  } while (token);
}
