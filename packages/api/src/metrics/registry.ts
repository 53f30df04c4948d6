/**
 * The API's Prometheus metrics (prom-client, one registry per server so that two servers in one process never
 * share counters). Label values are bounded by construction: route templates, HTTP methods and status codes,
 * gRPC method names, fixed kinds; never ids, raw paths or catalog names.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Route label of a request that matched no route (never the raw path: it may hold ids). */
export const UNKNOWN_ROUTE = 'unknown';

/** Bucket bounds of request durations, in seconds (OpenTelemetry's advice for `http.server.request.duration`). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60];

/** Kinds of open request that wait on the engine: a server-sent history stream, a history long-poll. */
export type OpenRequestKind = 'sse' | 'long_poll';

/** Which catalog read: the published document, what a document version serves (its build's record), or the list of polling workers. */
export type CatalogLookup = 'document' | 'record' | 'pollers';

/**
 * Every metric the API exports, on its own registry. Methods record; {@link ApiMetrics.render} answers a scrape.
 */
export class ApiMetrics {
  /** The registry that `/metrics` renders. */
  readonly registry = new Registry();
  readonly #http: Histogram<'http_route' | 'http_request_method' | 'http_response_status_code'>;
  readonly #engine: Histogram<'rpc_method' | 'rpc_grpc_status_code'>;
  readonly #engineErrors: Counter<'rpc_method' | 'rpc_grpc_status_code'>;
  readonly #open: Gauge<'kind'>;
  readonly #catalog: Counter<'lookup' | 'source'>;
  readonly #droppedSpans: Counter;

  /**
   * @param ready read at every scrape: whether the engine passes its health checks (the `/ready` answer).
   */
  constructor(ready: () => boolean) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#http = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests, from the first byte read to the response finished, in seconds.',
      labelNames: ['http_route', 'http_request_method', 'http_response_status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.#engine = new Histogram({
      name: 'skein_api_engine_call_duration_seconds',
      help: 'Duration of one Temporal WorkflowService call made by the API, retries included, in seconds.',
      labelNames: ['rpc_method', 'rpc_grpc_status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.#engineErrors = new Counter({
      name: 'skein_api_engine_call_errors_total',
      help: 'Temporal WorkflowService calls made by the API that ended with a gRPC status other than OK.',
      labelNames: ['rpc_method', 'rpc_grpc_status_code'],
      registers,
    });
    this.#open = new Gauge({
      name: 'skein_api_open_requests',
      help: 'Requests open right now that wait on the engine: history streams (kind="sse") and history long-polls (kind="long_poll").',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of ['sse', 'long_poll'] as const) this.#open.set({ kind }, 0);
    new Gauge({
      name: 'skein_api_ready',
      help: '1 while the engine passes its periodic health check (GET /ready answers 200), else 0.',
      registers,
      collect() {
        this.set(ready() ? 1 : 0);
      },
    });
    this.#catalog = new Counter({
      name: 'skein_api_catalog_lookups_total',
      help: 'Catalog reads by what was read (lookup="document" | "record" | "pollers") and whether the cache answered (source="cache") or the engine was asked (source="engine").',
      labelNames: ['lookup', 'source'],
      registers,
    });
    this.#droppedSpans = new Counter({
      name: 'skein_trace_spans_dropped_total',
      help: 'OpenTelemetry spans dropped because the export queue was full or an export failed (the collector slow or unreachable).',
      registers,
    });
  }

  /** Counts spans the tracer dropped. */
  droppedSpans(spans: number): void {
    this.#droppedSpans.inc(spans);
  }

  /**
   * Records one finished HTTP request.
   * @param route the route template (`/workflow/{id}/result`) or {@link UNKNOWN_ROUTE}.
   * @param status the response status code; a request the client abandoned before any answer is recorded as 499.
   * @param seconds duration, in seconds.
   */
  httpRequest(route: string, method: string, status: number, seconds: number): void {
    this.#http.observe({ http_route: route, http_request_method: method, http_response_status_code: status }, seconds);
  }

  /**
   * Records one engine call.
   * @param rpc the WorkflowService method name (`StartWorkflowExecution`).
   * @param code gRPC status name (`OK`, `NOT_FOUND`, `DEADLINE_EXCEEDED`, ...).
   * @param seconds duration, in seconds.
   */
  engineCall(rpc: string, code: string, seconds: number): void {
    this.#engine.observe({ rpc_method: rpc, rpc_grpc_status_code: code }, seconds);
    if (code !== 'OK') this.#engineErrors.inc({ rpc_method: rpc, rpc_grpc_status_code: code });
  }

  /** Counts an open request of `kind` until the returned function is called (idempotent). */
  opened(kind: OpenRequestKind): () => void {
    this.#open.inc({ kind });
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.#open.dec({ kind });
    };
  }

  /** Counts one catalog read answered by the cache or by the engine. */
  catalogLookup(lookup: CatalogLookup, source: 'cache' | 'engine'): void {
    this.#catalog.inc({ lookup, source });
  }

  /** The Prometheus text exposition (`text/plain; version=0.0.4`) of every metric. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** Content type of {@link ApiMetrics.render}'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
