import createFetchClient, { type Client as FetchClient } from 'openapi-fetch';
import pRetry from 'p-retry';
import { isTransient, SkeinApiError, SkeinConnectionError } from './errors.js';
import type { paths } from './generated/openapi.js';
import { followHistory, type FollowHistoryOptions } from './history-stream.js';
import { SkeinSchedules } from './schedules.js';
import type {
  CallOptions,
  Batch,
  BatchCount,
  BatchList,
  BatchRequest,
  BatchStarted,
  CatalogResponse,
  ExecutionRef,
  HistoryEvent,
  HistoryPage,
  HistoryStreamDone,
  InputResponse,
  ReadyResponse,
  ResultResponse,
  RunRequest,
  RunResponse,
  RunsResponse,
  StartRequest,
  StatusResponse,
  TraceLogResponse,
} from './types.js';

export type { CallOptions } from './types.js';

/** The API's address when none is given: `skein dev` and `skein api` listen there (`PORT`, default 3001). */
export const DEFAULT_API_URL = 'http://127.0.0.1:3001';

/** How a {@link SkeinClient} reaches the API. */
export interface SkeinClientOptions {
  /** Base URL of the API, e.g. `http://127.0.0.1:3001` (default {@link DEFAULT_API_URL}). */
  url?: string;
  /** Bearer token, sent as `Authorization: Bearer <token>` (the API requires it when `SKEIN_API_TOKEN` is set). */
  token?: string;
  /** Deadline of each request in ms (default 30 000). `run` waits longer: its own `timeout` plus 10 s. */
  timeoutMs?: number;
  /** The fetch implementation (default the global `fetch`). */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Options of calls that can target one run instead of the latest. */
export interface RunOptions extends CallOptions {
  /** A run id: target that run instead of the latest run of the execution. */
  runId?: string;
}

/** Options of the paged history read. */
export interface HistoryOptions extends RunOptions {
  /** Events per page, 1–50 (server default 20). */
  pageSize?: number;
  /** Cursor from a previous page's `nextPageToken`. */
  pageToken?: string;
  /** Decode input and output payloads in events. */
  includePayloads?: boolean;
  /** At the end of an open run's history, wait up to this many ms for a new event. */
  longPollTimeoutMs?: number;
}

/** Filters of {@link SkeinClient.listRuns}. */
export interface ListRunsOptions extends CallOptions {
  workflowType?: string;
  catalog?: string;
  /** Only runs started by this schedule. */
  scheduleId?: string;
  /** A visibility query (Temporal's list filter language), ANDed with the other filters. */
  query?: string;
  /** 1–1000, server default 100. */
  limit?: number;
}

/** Options of {@link SkeinClient.run}. */
export interface RunCallOptions extends CallOptions {
  /** Sent as the `Idempotency-Key` header: a repeat of the request answers the same execution, even after it closed. */
  idempotencyKey?: string;
}

/** Options of {@link SkeinClient.start}. */
export interface StartCallOptions extends RunCallOptions {
  /**
   * Retries after the API was unreachable, silent past the deadline or answered 5xx (default 2; 0 turns retries
   * off). Retries happen only with an `Idempotency-Key`, so that a start that landed is found again, never doubled.
   */
  retries?: number;
}

/** Options of {@link SkeinClient.listBatches}. */
export interface ListBatchesOptions extends CallOptions {
  /** 1–50, server default 20. */
  pageSize?: number;
  /** `nextPageToken` of the previous page. */
  pageToken?: string;
}

const RUN_WAIT_MARGIN_MS = 10_000;
const START_RETRIES = 2;
const MAX_RUN_WAIT_MS = 3_600_000;

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The `Idempotency-Key` header of a start, when there is a key. */
function idempotencyHeader(key: string | undefined): { 'idempotency-key'?: string } {
  return key === undefined ? {} : { 'idempotency-key': key };
}

/**
 * A typed client of the Skein HTTP API (docs/reference/api-contract.md), over fetch. It needs only the API's
 * URL: no engine connection, no worker code. Every method resolves with the response body or rejects with
 * {@link SkeinApiError} (the API answered an error) or {@link SkeinConnectionError} (the API is unreachable or
 * silent past the deadline). Workflow failures are not errors: `run` and `result` resolve with their `status`.
 */
export class SkeinClient {
  /** Base URL without a trailing slash. */
  readonly url: string;
  private readonly api: FetchClient<paths>;
  private readonly timeoutMs: number;
  private readonly headers: Record<string, string>;
  private readonly fetchImpl: typeof fetch;
  /** The schedule routes: `client.schedules.create(...)`, `list`, `describe`, `update`, `pause`, `unpause`, `trigger`, `backfill`, `delete`. */
  readonly schedules: SkeinSchedules;

  /** @throws TypeError when `options.url` is not an absolute URL (checked before any request). */
  constructor(options: SkeinClientOptions = {}) {
    this.url = (options.url ?? DEFAULT_API_URL).replace(/\/+$/, '');
    new URL(this.url); // throws TypeError on a malformed URL, before any request
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.headers = { ...(options.headers ?? {}), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.api = createFetchClient<paths>({ baseUrl: this.url, headers: this.headers, fetch: (req) => this.fetchImpl(req) });
    this.schedules = new SkeinSchedules(this.api, (options, call) => this.send(options, this.timeoutMs, call));
  }

  /**
   * `POST /workflow/run`: starts a workflow and waits for it (at most `request.timeout` ms, server default 30 s).
   * With `options.idempotencyKey` a repeat waits on (or answers) the execution the first request started.
   */
  run(request: RunRequest, options: RunCallOptions = {}): Promise<RunResponse> {
    const wait = (request.timeout ?? MAX_RUN_WAIT_MS) + RUN_WAIT_MARGIN_MS;
    const header = idempotencyHeader(options.idempotencyKey);
    return this.send(options, wait, (signal) => this.api.POST('/workflow/run', { body: request, params: { header }, signal }));
  }

  /**
   * `POST /workflow/start`: starts a workflow and answers at once with its ids.
   *
   * A start that fails in a way that may pass (the API unreachable or silent past the deadline, a 5xx answer) is
   * retried `options.retries` times (default 2, with backoff) under one `Idempotency-Key`, so a start that did
   * land is answered again rather than started twice: `options.idempotencyKey`, or a new random key when the
   * request names no `workflowId`, `onConflict` or `onClosed` (with those the caller chose what a repeat does, so
   * the request is sent once unless it passes a key). With a key and no `workflowId` the API derives the
   * execution id from the catalog, the workflow name and the key.
   */
  start(request: StartRequest, options: StartCallOptions = {}): Promise<ExecutionRef> {
    const callerChose = request.workflowId !== undefined || request.onConflict !== undefined || request.onClosed !== undefined;
    const key = options.idempotencyKey ?? (callerChose ? undefined : globalThis.crypto.randomUUID());
    const header = idempotencyHeader(key);
    const attempt = () => this.send(options, this.timeoutMs, (signal) => this.api.POST('/workflow/start', { body: request, params: { header }, signal }));
    if (key === undefined) return attempt();
    return pRetry(attempt, {
      retries: options.retries ?? START_RETRIES,
      minTimeout: 250,
      maxTimeout: 2_000,
      factor: 2,
      randomize: true,
      signal: options.signal,
      shouldRetry: ({ error }) => isTransient(error),
    });
  }

  /** Status of the latest run, or of `runId`: `{ workflowId, runId, status, startedAt, completedAt }`. */
  status(workflowId: string, options: RunOptions = {}): Promise<StatusResponse> {
    const { runId } = options;
    return this.send(options, this.timeoutMs, (signal) =>
      runId
        ? this.api.GET('/workflow/{id}/runs/{rid}/status', { params: { path: { id: workflowId, rid: runId } }, signal })
        : this.api.GET('/workflow/{id}/status', { params: { path: { id: workflowId } }, signal }),
    );
  }

  /** Result (v2) of the latest run, or of `runId`. Rejects with `WorkflowNotCompletedError` (409) while it runs. */
  result(workflowId: string, options: RunOptions = {}): Promise<ResultResponse> {
    const { runId } = options;
    return this.send(options, this.timeoutMs, (signal) =>
      runId
        ? this.api.GET('/workflow/{id}/runs/{rid}/result', { params: { path: { id: workflowId, rid: runId } }, signal })
        : this.api.GET('/workflow/{id}/result', { params: { path: { id: workflowId } }, signal }),
    );
  }

  /** The input the latest run (or `runId`) was started with. */
  input(workflowId: string, options: RunOptions = {}): Promise<InputResponse> {
    const { runId } = options;
    return this.send(options, this.timeoutMs, (signal) =>
      runId
        ? this.api.GET('/workflow/{id}/runs/{rid}/input', { params: { path: { id: workflowId, rid: runId } }, signal })
        : this.api.GET('/workflow/{id}/input', { params: { path: { id: workflowId } }, signal }),
    );
  }

  /**
   * `GET /workflow/runs`: most recent runs first. `startedAt`/`completedAt` are ISO 8601 strings, as the API sends them
   * (epoch ms from older servers); read them with {@link parseApiTime}.
   */
  listRuns(options: ListRunsOptions = {}): Promise<RunsResponse> {
    const query = { workflowType: options.workflowType, catalog: options.catalog, scheduleId: options.scheduleId, query: options.query, limit: options.limit };
    return this.send(options, this.timeoutMs, (signal) => this.api.GET('/workflow/runs', { params: { query }, signal }));
  }

  /** One page of history of the latest run (or `runId`). Pass `nextPageToken` back as `pageToken` for the next. */
  history(workflowId: string, options: HistoryOptions = {}): Promise<HistoryPage> {
    const { runId } = options;
    const query = {
      pageSize: options.pageSize,
      pageToken: options.pageToken,
      includePayloads: options.includePayloads === undefined ? undefined : options.includePayloads ? ('true' as const) : ('false' as const),
      longPollTimeoutMs: options.longPollTimeoutMs,
    };
    const wait = this.timeoutMs + (options.longPollTimeoutMs ?? 0);
    return this.send(options, wait, (signal) =>
      runId
        ? this.api.GET('/workflow/{id}/runs/{rid}/history', { params: { path: { id: workflowId, rid: runId }, query }, signal })
        : this.api.GET('/workflow/{id}/history', { params: { path: { id: workflowId }, query }, signal }),
    );
  }

  /**
   * Every history event of one run, page by page, until the current end of its history (an open run's later
   * events are not waited for: use {@link followHistory}). The run is pinned by the first page.
   */
  async *historyEvents(
    workflowId: string,
    options: Omit<HistoryOptions, 'pageToken' | 'longPollTimeoutMs'> = {},
  ): AsyncGenerator<HistoryEvent, void, undefined> {
    let pageToken: string | undefined;
    do {
      const page = await this.history(workflowId, { ...options, pageToken });
      yield* page.events;
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
  }

  /**
   * Follows a run's history over the server-sent events route until the run closes, resuming with
   * `Last-Event-ID` after a dropped connection. See {@link FollowHistoryOptions}.
   * @returns the `done` frame: the run's closing status
   */
  followHistory(workflowId: string, options: FollowHistoryOptions): Promise<HistoryStreamDone> {
    return followHistory({ url: this.url, headers: this.headers, fetch: this.fetchImpl }, workflowId, options);
  }

  /** Sends signal `name` to the latest run; answers the run that received it. */
  signal(workflowId: string, name: string, payload?: Record<string, unknown>, options: CallOptions = {}): Promise<ExecutionRef> {
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.POST('/workflow/{id}/signal/{signal}', { params: { path: { id: workflowId, signal: name } }, body: { payload }, signal }),
    );
  }

  /**
   * `POST /workflow/{id}/feedback`: resumes the latest run waiting in `sendPostRequestAndAwaitWebhook` with
   * `payload` (an object; that call answers it). A run that is not waiting ignores it. Answers the run that received it.
   * @throws SkeinApiError 404 `WorkflowNotFoundError`, 409 when the latest run is closed, 413 for a payload over the body limit.
   */
  feedback(workflowId: string, payload?: Record<string, unknown>, options: CallOptions = {}): Promise<ExecutionRef> {
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.POST('/workflow/{id}/feedback', { params: { path: { id: workflowId } }, body: payload === undefined ? {} : { payload }, signal }),
    );
  }

  /**
   * Runs query handler `name` of the latest run and resolves with the handler's return value (the response body
   * itself; `undefined` for an empty body).
   */
  query(workflowId: string, name: string, payload?: unknown, options: CallOptions = {}): Promise<unknown> {
    return this.sendForValue(options, (signal) =>
      this.api.POST('/workflow/{id}/query/{query}', { params: { path: { id: workflowId, query: name } }, body: { payload }, signal, parseAs: 'text' }),
    );
  }

  /** Runs update handler `name` of the latest run, waits for it and resolves with its return value (as {@link query}). */
  update(workflowId: string, name: string, payload?: unknown, options: CallOptions = {}): Promise<unknown> {
    return this.sendForValue(options, (signal) =>
      this.api.POST('/workflow/{id}/update/{update}', { params: { path: { id: workflowId, update: name } }, body: { payload }, signal, parseAs: 'text' }),
    );
  }

  /** Requests cancellation of a run (the latest when `runId` is absent) through the run-pinned route. */
  async stop(workflowId: string, options: RunOptions = {}): Promise<ExecutionRef> {
    const rid = await this.resolveRunId(workflowId, options);
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.PATCH('/workflow/{id}/runs/{rid}/stop', { params: { path: { id: workflowId, rid } }, signal }),
    );
  }

  /** Terminates a run (the latest when `runId` is absent) through the run-pinned route. */
  async terminate(workflowId: string, options: RunOptions & { reason?: string } = {}): Promise<ExecutionRef> {
    const rid = await this.resolveRunId(workflowId, options);
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.POST('/workflow/{id}/runs/{rid}/terminate', { params: { path: { id: workflowId, rid } }, body: { reason: options.reason }, signal }),
    );
  }

  /**
   * Resets a run (the latest when `runId` is absent) to just after step `stepName`'s last completion, through the
   * run-pinned route. Resolves with the new run's ids.
   */
  async reset(workflowId: string, stepName: string, options: RunOptions & { reason?: string } = {}): Promise<ExecutionRef> {
    const rid = await this.resolveRunId(workflowId, options);
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.POST('/workflow/{id}/runs/{rid}/reset', { params: { path: { id: workflowId, rid } }, body: { stepName, reason: options.reason }, signal }),
    );
  }

  /** The trace tree of a closed run (the latest when `runId` is absent). */
  async traceLog(workflowId: string, options: RunOptions = {}): Promise<TraceLogResponse> {
    const rid = await this.resolveRunId(workflowId, options);
    return this.send(options, this.timeoutMs, (signal) =>
      this.api.GET('/workflow/{id}/runs/{rid}/trace-log', { params: { path: { id: workflowId, rid } }, signal }),
    );
  }

  /** The catalog document of `catalog` (the API's default catalog when absent). */
  catalog(catalog?: string, options: CallOptions = {}): Promise<CatalogResponse> {
    return this.send(options, this.timeoutMs, (signal) =>
      catalog ? this.api.GET('/workflow/catalog/{catalog}', { params: { path: { catalog } }, signal }) : this.api.GET('/workflow/catalog', { signal }),
    );
  }

  /**
   * `POST /workflow/batch`: applies `request.operation` to every execution `request.query` matches on a catalog,
   * or to the latest run of each of `request.workflowIds`. With `dryRun: true` it resolves `{ matched }` and changes
   * nothing; otherwise `{ batchId, matched }` (read progress with {@link batch}). Rejects with a
   * `ValidationError` (400) for a query the engine refuses, `TooManyBatchOperationsError` (429) while the namespace
   * runs as many batches as it allows.
   */
  startBatch(request: BatchRequest, options: CallOptions = {}): Promise<BatchCount | BatchStarted> {
    return this.send(options, this.timeoutMs, (signal) => this.api.POST('/workflow/batch', { body: request, signal }));
  }

  /** `GET /workflow/batch/{batchId}`: a batch's progress. Rejects with `BatchNotFoundError` (404) for an unknown id. */
  batch(batchId: string, options: CallOptions = {}): Promise<Batch> {
    return this.send(options, this.timeoutMs, (signal) => this.api.GET('/workflow/batch/{batchId}', { params: { path: { batchId } }, signal }));
  }

  /** `GET /workflow/batch`: the namespace's batch operations, most recent first, one page at a time. */
  listBatches(options: ListBatchesOptions = {}): Promise<BatchList> {
    const query = { pageSize: options.pageSize, pageToken: options.pageToken };
    return this.send(options, this.timeoutMs, (signal) => this.api.GET('/workflow/batch', { params: { query }, signal }));
  }

  /** `GET /ready`: `{ status: 'ready' }`, or `{ status: 'unavailable' }` (a 503, resolved rather than thrown). */
  async ready(options: CallOptions = {}): Promise<ReadyResponse> {
    try {
      return await this.send(options, this.timeoutMs, (signal) => this.api.GET('/ready', { signal }));
    } catch (err) {
      if (err instanceof SkeinApiError && err.status === 503) return { status: 'unavailable' };
      throw err;
    }
  }

  /** `POST /heartbeat`: resolves when the API answers 204 (no engine call). */
  async heartbeat(options: CallOptions = {}): Promise<void> {
    await this.send(options, this.timeoutMs, (signal) => this.api.POST('/heartbeat', { signal }));
  }

  /** `runId`, or the latest run's id read from the status route. */
  private async resolveRunId(workflowId: string, options: RunOptions): Promise<string> {
    return options.runId ?? (await this.status(workflowId, { signal: options.signal })).runId;
  }

  private async sendForValue(options: CallOptions, call: (signal: AbortSignal) => Promise<Outcome<string>>): Promise<unknown> {
    const text = await this.send(options, this.timeoutMs, call);
    if (text === undefined || text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new SkeinApiError({ status: 502, type: 'HttpError', message: 'The API answered a body that is not JSON' });
    }
  }

  /** Runs one request with its deadline and turns every failure into a SkeinApiError or SkeinConnectionError. */
  private async send<T>(options: CallOptions, timeoutMs: number, call: (signal: AbortSignal) => Promise<Outcome<T>>): Promise<T> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
    let outcome: Outcome<T>;
    try {
      outcome = await call(signal);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (err instanceof SyntaxError) throw new SkeinApiError({ status: 502, type: 'HttpError', message: 'The API answered a body that is not JSON' });
      throw new SkeinConnectionError(this.url, err, deadline.aborted);
    }
    if (!outcome.response.ok) throw SkeinApiError.fromResponse(outcome.response, outcome.error);
    return outcome.data as T;
  }
}
