/**
 * Starting an execution, shared by `POST /workflow/start` (answers with the ids at once) and `POST /workflow/run`
 * (waits for the result): both resolve the catalog and the workflow, and apply the start policies, the same way
 * before anything is started.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { ApiError } from '../errors.js';
import type { CatalogCache } from './catalog.js';
import { engine } from './engine.js';
import { describeRun } from './runs.js';
import { idempotentWorkflowId, startPolicy, type OnClosed, type OnConflict } from './start-options.js';

/** What starting needs of the API's dependencies: the engine client, the catalog documents, the default catalog. */
export interface StartDeps {
  client: Client;
  catalogs: Pick<CatalogCache, 'resolve'>;
  config: { defaultCatalog: string };
}

/** A validated start (or run) request, with its `Idempotency-Key` header when it had one. */
export interface StartInput {
  workflowName: string;
  input?: unknown;
  workflowId?: string | undefined;
  catalog?: string | undefined;
  taskQueue?: string | undefined;
  onConflict?: OnConflict | undefined;
  onClosed?: OnClosed | undefined;
  /** Delay before the first workflow task, ms. */
  startDelay?: number | undefined;
  idempotencyKey?: string | undefined;
}

/** What a start answers: the execution's ids, and the input the request gave (absent = null). */
export interface Started {
  workflowId: string;
  runId: string;
  input: unknown;
  /**
   * True when the answer may be an execution that was there before this request (`use-existing`, an
   * `Idempotency-Key`): its input is then its own, not necessarily the request's.
   */
  mayExist: boolean;
}

/**
 * The execution id of a start: `workflowId` when given, else the id derived from the `Idempotency-Key`, else a new
 * UUID. Known before the start itself (a `/run` that times out names it).
 */
export function startWorkflowId(deps: StartDeps, req: StartInput): string {
  if (req.workflowId !== undefined) return req.workflowId;
  if (req.idempotencyKey !== undefined) {
    return idempotentWorkflowId(req.catalog ?? req.taskQueue ?? deps.config.defaultCatalog, req.workflowName, req.idempotencyKey);
  }
  return randomUUID();
}

/**
 * Resolves the catalog (`catalog` wins over the deprecated `taskQueue`, then the default), checks the workflow
 * is served there (name or alias, from the `$catalog` memo) and starts its CANONICAL name with `[input ?? null]`,
 * under the request's `onConflict`/`onClosed` policies (`Idempotency-Key`: `use-existing` and `reject`) and
 * `startDelay`. Nothing is started when the check fails. With an `Idempotency-Key`, a CLOSED execution holding the
 * id is the answer too (its latest run's ids).
 * @throws ApiError `CatalogNotAvailableError` / `UnsupportedWorkflowError` (404), `ValidationError` (400, an
 *   `Idempotency-Key` with contradicting policies), `WorkflowExecutionAlreadyStartedError` (409, the policies
 *   refuse the id), `InternalError` (500).
 */
export async function startExecution(deps: StartDeps, req: StartInput): Promise<Started> {
  const policy = startPolicy(req);
  const catalog = req.catalog ?? req.taskQueue ?? deps.config.defaultCatalog;
  const entry = await deps.catalogs.resolve(catalog, req.workflowName);
  const workflowId = startWorkflowId(deps, req);
  const input = req.input === undefined ? null : req.input;
  try {
    const handle = await engine(workflowId, () =>
      deps.client.workflow.start(entry.name, {
        taskQueue: catalog,
        workflowId,
        args: [input],
        workflowIdConflictPolicy: policy.workflowIdConflictPolicy,
        workflowIdReusePolicy: policy.workflowIdReusePolicy,
        ...(req.startDelay ? { startDelay: req.startDelay } : {}),
      }),
    );
    // Under `use-existing` the engine answers the running execution's run, which this request may not have started.
    return { workflowId, runId: handle.firstExecutionRunId, input, mayExist: policy.onConflict === 'use-existing' };
  } catch (err) {
    if (!(err instanceof ApiError) || err.type !== 'WorkflowExecutionAlreadyStartedError') throw err;
    if (policy.idempotent) {
      const latest = await describeRun(deps.client, workflowId);
      return { workflowId, runId: latest.runId, input, mayExist: true };
    }
    if (policy.onClosed !== 'allow') {
      throw new ApiError('WorkflowExecutionAlreadyStartedError', {
        workflowId,
        message: `The workflow id is held by a running execution, or by a closed one that onClosed: ${policy.onClosed} does not allow reusing`,
        cause: err,
      });
    }
    throw err;
  }
}
