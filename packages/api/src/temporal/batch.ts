/**
 * Batch operations (`/workflow/batch`, docs/api.md "Batch operations") on Temporal's own batch operations: the
 * engine runs the job (`StartBatchOperation`) and keeps its progress (`DescribeBatchOperation`,
 * `ListBatchOperations`); Skein counts what a request matches (`CountWorkflowExecutions`) and keeps it to Skein's
 * runs.
 *
 * What a batch reaches:
 * - by `query`: only runs of ONE catalog (its task queue: the request's `catalog`, else the API's default), never
 *   the `$catalog` registry workflows nor Skein's record-keeping executions (`skein-records` is refused as a
 *   catalog); the caller's query is ANDed last, as one self-contained expression (`visibility-query.ts`);
 * - by `workflowIds`: the latest run of each named execution, as the single-run routes reach them.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { toPayloads } from '@temporalio/common';
import type { google, temporal as T } from '@temporalio/proto';
import { ApiError } from '../errors.js';
import { CATALOG_WORKFLOW_TYPE, RECORDS_TASK_QUEUE } from '@skein/names';
import { engineError, GRPC, grpcCode, withPageToken } from './engine.js';
import { temporal, toNumber } from './proto.js';
import { quoteLiteral, refusedQuery, restrictQuery, withQuery } from './visibility-query.js';

/** The operations a batch applies to each execution it reaches. */
export const BATCH_OPERATIONS = ['terminate', 'cancel', 'signal', 'reset'] as const;
/** One of {@link BATCH_OPERATIONS}. */
export type BatchOperation = (typeof BATCH_OPERATIONS)[number];
/** Where a batch `reset` puts each run back: its first or its last completed workflow task. */
export const RESET_TYPES = ['first-workflow-task', 'last-workflow-task'] as const;
/** States of a batch job. */
export const BATCH_STATES = ['running', 'completed', 'failed'] as const;

/** Identity the engine records for the operations a batch performs. */
const IDENTITY = 'skein-api';

/** A validated batch request. Exactly one of `query` and `workflowIds` is present (the schema checks it). */
export interface BatchRequest {
  operation: BatchOperation;
  query?: string | undefined;
  workflowIds?: string[] | undefined;
  catalog?: string | undefined;
  reason?: string | undefined;
  signal?: { name: string; payload?: Record<string, unknown> | undefined } | undefined;
  reset?: { type: (typeof RESET_TYPES)[number] } | undefined;
}

/** What a batch reaches, worked out before anything runs. */
export interface BatchTarget {
  /** The visibility query sent to the engine (`query` requests only). */
  query?: string;
  /** The executions named (`workflowIds` requests only), each once. */
  workflowIds?: string[];
  /** How many executions the batch reaches now: the query's count, or the number of distinct ids. */
  matched: number;
}

/** A batch job's progress, as `GET /workflow/batch/{batchId}` answers it. */
export interface BatchView {
  batchId: string;
  operation: BatchOperation | null;
  state: (typeof BATCH_STATES)[number];
  /** Executions the job reaches, once the engine counted them. */
  total: number;
  completed: number;
  failed: number;
  /** ISO 8601. */
  startedAt: string | null;
  /** ISO 8601; null while running. */
  closedAt: string | null;
  reason: string | null;
}

const Type = temporal.api.enums.v1.BatchOperationType;
const State = temporal.api.enums.v1.BatchOperationState;

const OPERATION_OF_TYPE = new Map<number, BatchOperation>([
  [Type.BATCH_OPERATION_TYPE_TERMINATE, 'terminate'],
  [Type.BATCH_OPERATION_TYPE_TERMINATE_WORKFLOW, 'terminate'],
  [Type.BATCH_OPERATION_TYPE_CANCEL, 'cancel'],
  [Type.BATCH_OPERATION_TYPE_CANCEL_WORKFLOW, 'cancel'],
  [Type.BATCH_OPERATION_TYPE_SIGNAL, 'signal'],
  [Type.BATCH_OPERATION_TYPE_SIGNAL_WORKFLOW, 'signal'],
  [Type.BATCH_OPERATION_TYPE_RESET, 'reset'],
  [Type.BATCH_OPERATION_TYPE_RESET_WORKFLOW, 'reset'],
]);

/**
 * The visibility query of a batch over `catalog`: that task queue, no `$catalog` registry runs, then the caller's
 * query. (Records live on `skein-records`, which a batch cannot name.)
 * @throws ApiError `ValidationError` (400) when the caller's query is not self-contained, or `catalog` is `skein-records`.
 */
export function batchQuery(catalog: string, callerQuery: string): string {
  if (catalog === RECORDS_TASK_QUEUE) {
    throw new ApiError('ValidationError', {
      message: `A batch cannot reach the catalog ${RECORDS_TASK_QUEUE}: it holds Skein's own records`,
      issues: [{ code: 'reserved_catalog', path: ['body', 'catalog'], message: `${RECORDS_TASK_QUEUE} is reserved` }],
    });
  }
  return restrictQuery([`TaskQueue = ${quoteLiteral(catalog)}`, `WorkflowType != ${quoteLiteral(CATALOG_WORKFLOW_TYPE)}`], callerQuery, 'body');
}

/**
 * Works out what a batch reaches and counts it: a query's matches (the engine's count, so the query is checked by
 * the engine before any job starts) or the distinct ids named.
 * @throws ApiError `ValidationError` (400) for a query Skein or the engine refuses (the engine's reason, sanitized),
 *   `InternalError` (500).
 */
export async function batchTarget(client: Client, req: BatchRequest, defaultCatalog: string): Promise<BatchTarget> {
  if (req.workflowIds) {
    const workflowIds = [...new Set(req.workflowIds)];
    return { workflowIds, matched: workflowIds.length };
  }
  const query = batchQuery(req.catalog ?? defaultCatalog, req.query ?? '');
  const { count } = await withQuery('body', () => client.workflow.count(query));
  return { query, matched: count };
}

function operationFields(client: Client, req: BatchRequest): Partial<T.api.workflowservice.v1.IStartBatchOperationRequest> {
  switch (req.operation) {
    case 'terminate':
      return { terminationOperation: { identity: IDENTITY } };
    case 'cancel':
      return { cancellationOperation: { identity: IDENTITY } };
    case 'signal': {
      // As `POST /workflow/{id}/signal/{signal}`: the argument is an object, `{}` when none is sent.
      const args = [req.signal?.payload ?? {}];
      const input = { payloads: toPayloads(client.options.loadedDataConverter.payloadConverter, ...args) ?? [] };
      return { signalOperation: { identity: IDENTITY, signal: req.signal?.name ?? '', input } };
    }
    case 'reset': {
      const last = (req.reset?.type ?? 'last-workflow-task') === 'last-workflow-task';
      return { resetOperation: { identity: IDENTITY, options: last ? { lastWorkflowTask: {} } : { firstWorkflowTask: {} } } };
    }
  }
}

/**
 * Starts a batch job over `target` and answers its id (a new UUID).
 * @throws ApiError `TooManyBatchOperationsError` (429) when the namespace already runs as many batch jobs as the
 *   engine allows (Temporal's `frontend.MaxConcurrentBatchOperationPerNamespace`), `ValidationError` (400) for a
 *   query the engine refuses, `InternalError` (500).
 */
export async function startBatch(client: Client, req: BatchRequest, target: BatchTarget): Promise<string> {
  const batchId = randomUUID();
  const reason = req.reason ?? `skein batch ${req.operation}`;
  const request: T.api.workflowservice.v1.IStartBatchOperationRequest = {
    namespace: client.options.namespace,
    jobId: batchId,
    reason,
    ...(target.query !== undefined ? { visibilityQuery: target.query } : { executions: (target.workflowIds ?? []).map((workflowId) => ({ workflowId })) }),
    ...operationFields(client, req),
  };
  try {
    await client.workflowService.startBatchOperation(request);
  } catch (err) {
    if (grpcCode(err) === GRPC.RESOURCE_EXHAUSTED) {
      throw new ApiError('TooManyBatchOperationsError', { cause: err, headers: { 'Retry-After': '5' } });
    }
    throw target.query !== undefined ? refusedQuery(err, 'body') : engineError(err);
  }
  return batchId;
}

function isoOf(ts: google.protobuf.ITimestamp | null | undefined): string | null {
  if (!ts || ts.seconds === undefined || ts.seconds === null) return null;
  return new Date(toNumber(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6)).toISOString();
}

function stateOf(state: number | null | undefined): BatchView['state'] {
  if (state === State.BATCH_OPERATION_STATE_COMPLETED) return 'completed';
  if (state === State.BATCH_OPERATION_STATE_FAILED) return 'failed';
  return 'running';
}

/**
 * The progress of batch job `batchId`.
 * @throws ApiError `BatchNotFoundError` (404) for an unknown job, `InternalError` (500).
 */
export async function describeBatch(client: Client, batchId: string): Promise<BatchView> {
  let d: T.api.workflowservice.v1.IDescribeBatchOperationResponse;
  try {
    d = await client.workflowService.describeBatchOperation({ namespace: client.options.namespace, jobId: batchId });
  } catch (err) {
    if (grpcCode(err) === GRPC.NOT_FOUND) throw new ApiError('BatchNotFoundError', { message: `No batch operation ${batchId}`, cause: err });
    throw engineError(err);
  }
  return {
    batchId: d.jobId || batchId,
    operation: OPERATION_OF_TYPE.get(d.operationType ?? 0) ?? null,
    state: stateOf(d.state),
    total: toNumber(d.totalOperationCount),
    completed: toNumber(d.completeOperationCount),
    failed: toNumber(d.failureOperationCount),
    startedAt: isoOf(d.startTime),
    closedAt: isoOf(d.closeTime),
    reason: d.reason || null,
  };
}

/** One page of batch jobs, most recent first as the engine lists them. */
export interface BatchPage {
  batches: BatchView[];
  /** Opaque cursor of the next page (base64url), null on the last page. */
  nextPageToken: string | null;
}

/**
 * Lists the namespace's batch jobs, `pageSize` at a time, each described with its progress (jobs that disappear
 * between the list and their description are left out).
 * @param pageToken a `nextPageToken` of a previous page.
 * @throws ApiError `ValidationError` (400) for a page token the engine cannot read, `InternalError` (500).
 */
export async function listBatches(client: Client, pageSize: number, pageToken?: string): Promise<BatchPage> {
  let res: T.api.workflowservice.v1.IListBatchOperationsResponse;
  try {
    res = await withPageToken(pageToken, () =>
      client.workflowService.listBatchOperations({
        namespace: client.options.namespace,
        pageSize,
        ...(pageToken ? { nextPageToken: Buffer.from(pageToken, 'base64url') } : {}),
      }),
    );
  } catch (err) {
    throw engineError(err);
  }
  const described = await Promise.all(
    (res.operationInfo ?? []).map((info) =>
      describeBatch(client, info.jobId ?? '').catch((err: unknown) => {
        if (err instanceof ApiError && err.type === 'BatchNotFoundError') return undefined;
        throw err;
      }),
    ),
  );
  const next = res.nextPageToken && res.nextPageToken.length > 0 ? Buffer.from(res.nextPageToken).toString('base64url') : null;
  return { batches: described.filter((b): b is BatchView => b !== undefined), nextPageToken: next };
}
