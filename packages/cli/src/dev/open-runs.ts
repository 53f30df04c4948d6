/**
 * The open runs `skein dev`'s versioning note weighs after a reload: each running execution of the served catalog's
 * task queue (Skein's own `$` records left out), with the time its last workflow task completed. The code that
 * completed that task replayed the run's whole history, so its command shapes are the ones the edit must still match.
 */
import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import type { OpenRun } from './reload-versioning.js';

/** At most this many open runs are read per reload (a dev loop holds a handful). */
const MAX_RUNS = 200;
/** History events read per page, newest first, and pages per run before the run counts as unknown. */
const PAGE_SIZE = 100;
const MAX_PAGES = 5;

/** `EVENT_TYPE_WORKFLOW_TASK_COMPLETED` of Temporal's `temporal.api.enums.v1.EventType`. */
const WORKFLOW_TASK_COMPLETED = 7;

/** Reads the open runs of one task queue; `close()` ends its connection. */
export interface OpenRunsReader {
  /** The open runs, each with when its last workflow task completed; throws when the engine cannot be read. */
  read(): Promise<OpenRun[]>;
  close(): Promise<void>;
}

/**
 * Opens a reader of the open runs on `taskQueue` (the served catalog) of `namespace`.
 * @param connection Temporal connection options (address, TLS, API key), as the API connects
 * @throws when the engine cannot be reached (`skein dev` then compares with the last served code only)
 */
export async function openRunsReader(connection: ConnectionOptions, namespace: string, taskQueue: string): Promise<OpenRunsReader> {
  const conn = await Connection.connect({ ...connection, connectTimeout: 5_000 });
  const client = new Client({ connection: conn, namespace });
  return {
    async read() {
      const out: OpenRun[] = [];
      const query = `TaskQueue=${JSON.stringify(taskQueue)} AND ExecutionStatus="Running"`;
      for await (const run of client.workflow.list({ query, pageSize: 100 })) {
        if (run.type.startsWith('$')) continue;
        out.push({ workflowType: run.type, lastTaskCompletedAt: await lastTaskCompletedAt(client, namespace, run.workflowId, run.runId) });
        if (out.length >= MAX_RUNS) break;
      }
      return out;
    },
    close: () => conn.close(),
  };
}

/** When the run's last workflow task completed (ms since the epoch), null when none did, undefined when not found in the pages read. */
async function lastTaskCompletedAt(client: Client, namespace: string, workflowId: string, runId: string): Promise<number | null | undefined> {
  let nextPageToken: Uint8Array | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.workflowService.getWorkflowExecutionHistoryReverse({
      namespace,
      execution: { workflowId, runId },
      maximumPageSize: PAGE_SIZE,
      nextPageToken,
    });
    const events = res.history?.events ?? [];
    const done = events.find((e) => Number(e.eventType) === WORKFLOW_TASK_COMPLETED);
    if (done?.eventTime) return Number(done.eventTime.seconds ?? 0) * 1000 + Math.floor((done.eventTime.nanos ?? 0) / 1e6);
    if (!res.nextPageToken?.length) return null;
    nextPageToken = res.nextPageToken;
  }
  return undefined;
}
