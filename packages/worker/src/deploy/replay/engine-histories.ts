import { CATALOG_WORKFLOW_TYPE } from '@skein/core';
import type { Client } from '@temporalio/client';
import type { ReplayHistory } from './types.js';

/** Which runs `engineHistories` reads. */
export interface EngineHistoryQuery {
  /** The catalog (task queue) whose runs are read. */
  catalog: string;
  /** Only runs of this workflow type; default every type but the catalog's own `$catalog`. */
  workflowType?: string;
  /** At most this many runs, the most recent first (Temporal's visibility order); a positive integer. */
  limit: number;
}

/** A visibility query value in double quotes, escaped. */
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * The histories of the most recent runs, closed and open, on the catalog's task queue, fetched one at a time
 * as the caller iterates (Temporal's list of workflow executions, then each run's history).
 * The runs of the catalog document (`$catalog`) are left out: they run no project code.
 * @throws the engine's error when listing or a history fetch fails (e.g. the engine is unreachable).
 */
export async function* engineHistories(client: Client, query: EngineHistoryQuery): AsyncGenerator<ReplayHistory> {
  const type = query.workflowType ? `WorkflowType = ${quoted(query.workflowType)}` : `WorkflowType != ${quoted(CATALOG_WORKFLOW_TYPE)}`;
  let count = 0;
  for await (const run of client.workflow.list({ query: `TaskQueue = ${quoted(query.catalog)} AND ${type}`, pageSize: Math.min(query.limit, 100) })) {
    if (count >= query.limit) return;
    count++;
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    yield { workflowId: run.workflowId, runId: run.runId, workflowType: run.type, source: 'engine', history };
  }
}
