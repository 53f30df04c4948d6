import type Koa from 'koa';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ApiConfig } from './config.js';
import { ApiError, validationError, type ErrorType, type ValidationIssue } from './errors.js';
import type { ApiMetrics } from './metrics/registry.js';
import type { CatalogCache } from './temporal/catalog.js';
import type { HistoryTokens } from './temporal/history-token.js';
import type { TraceReader } from './temporal/trace-reader.js';

/** Shared services handed to every route handler. */
export interface Deps {
  client: Client;
  config: ApiConfig;
  catalogs: CatalogCache;
  /** Reads runs' traces (trace-log). */
  traces: TraceReader;
  /** Engine health as last seen by the engine health monitor (`monitorEngine`). */
  health: { healthy: boolean };
  /** Aborted when the drain period of a shutdown ends: every engine call still running is released. */
  shutdown: AbortSignal;
  /** Aborted as soon as a shutdown begins: history streams and history long-polls end at once. */
  closing: AbortSignal;
  /**
   * Aborted when a shutdown's grace period (`shutdownGraceMs`) ends with requests still in flight: a run still
   * waited on is answered now (408, it keeps running), shortly before {@link Deps.shutdown} releases everything.
   */
  graceOver: AbortSignal;
  logger: Logger;
  /** The server's Prometheus metrics (served by `GET /metrics`). */
  metrics: ApiMetrics;
  /** Signs and checks history `pageToken`s (key: `SKEIN_HISTORY_TOKEN_KEY`, else random per process). */
  historyTokens: HistoryTokens;
}

/** Koa state the API sets per request (read by the logger). */
export interface ApiState {
  requestId: string;
  route?: string;
  /** The execution the request concerns, for the log: its path's id, or the one a start chose. */
  workflowId?: string;
  /** The valid workflow id the request's path names (`requestTarget`): what an error body names when its error names none. */
  pathWorkflowId?: string;
  runId?: string;
  /** Aborted when the client disconnects or the server shuts down. */
  signal: AbortSignal;
  /** The request span's ids while tracing is on (added to the request's log line). */
  traceIds?: { trace_id: string; span_id: string };
  log: Logger;
}

/** One documented response of a route. */
export interface ResponseDef {
  description: string;
  /** JSON body schema; omit for no body. */
  schema?: z.ZodType;
  /** Content type when not JSON (e.g. `text/event-stream`, `text/html`). */
  contentType?: string;
}

/** Declarative route: the same zod schemas validate the request and generate the OpenAPI document. */
export interface RouteDef<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType, H extends z.ZodType = z.ZodType> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI-style path, e.g. `/workflow/{id}/runs/{rid}/result`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Deprecated shortcut: the pinned operation that replaces it (`stop`, `terminate`, `reset`). */
  deprecated?: { successor: string };
  params?: P;
  query?: Q;
  body?: B;
  /** Request headers the route reads (keys in lower case, as Node gives them); others are ignored. */
  headers?: H;
  /** Success responses by status code. */
  responses: Record<number, ResponseDef>;
  /** Not listed in the OpenAPI document (static assets). */
  hidden?: boolean;
  /** Error types this route can answer besides `ValidationError` and `InternalError` (documented per status). */
  errors?: ErrorType[];
  handler: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<B>, z.output<H>>) => Promise<void>;
}

/** What a handler receives: validated params, query, body and headers, the Koa context and the shared deps. */
export interface HandlerInput<P, Q, B, H = unknown> {
  ctx: Koa.ParameterizedContext<ApiState>;
  deps: Deps;
  params: P;
  query: Q;
  body: B;
  /** The route's `headers` schema's output (undefined for a route without one). */
  headers: H;
  /**
   * The OpenAPI document of the routes this app serves, built on first use and then kept. It is handed in rather
   * than imported so that the route that serves it does not depend on the list of routes it is part of.
   */
  openApiDocument: () => unknown;
}

/** Identity helper that keeps the generic types of a route definition. */
export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, H extends z.ZodType = z.ZodType>(
  def: RouteDef<P, Q, B, H>,
): RouteDef {
  return def;
}

/** The part of a request a value was read from (the first element of a validation issue's path). */
export type RequestPart = 'params' | 'query' | 'body' | 'headers';

/** Converts zod issues to `ValidationErrorResponse.issues`, prefixing each path with where the value came from. */
export function toIssues(error: z.ZodError, where: RequestPart): ValidationIssue[] {
  return error.issues.map((i) => ({
    code: String(i.code),
    path: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    message: i.message,
  }));
}

/**
 * Validates `value` against `schema`.
 * @throws ApiError `ValidationError` (400) with the zod issues.
 */
export function parseOr400<S extends z.ZodType>(schema: S | undefined, value: unknown, where: RequestPart): z.output<S> {
  if (!schema) return undefined as z.output<S>;
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(`Invalid request ${where === 'params' ? 'path parameters' : where}`, toIssues(r.error, where));
  return r.data;
}

/**
 * The deprecation headers of a deprecated route (docs/reference/api-contract.md, "Endpoints"). `Link` points at the run-pinned
 * successor of the run the call targeted, `</workflow/<id>/runs/<rid>/<op>>`; a part not known (the workflow or
 * its latest run could not be read) stays as the path template, `{id}` or `{rid}`.
 */
export function deprecationHeaders(successor: string, workflowId?: string, runId?: string): Record<string, string> {
  const id = workflowId === undefined ? '{id}' : encodeURIComponent(workflowId);
  const rid = runId === undefined ? '{rid}' : encodeURIComponent(runId);
  return {
    Deprecation: 'true',
    Sunset: 'Thu, 16 Jul 2026 00:00:00 GMT',
    Link: `</workflow/${id}/runs/${rid}/${successor}>; rel="successor-version"`,
  };
}

/** Koa-router path (`:id`) of an OpenAPI path (`{id}`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Throws `WorkflowExecutionAlreadyCompletedError` (409) when a run is closed. */
export function assertRunning(status: string, workflowId: string): void {
  if (status !== 'running') throw new ApiError('WorkflowExecutionAlreadyCompletedError', { workflowId });
}
