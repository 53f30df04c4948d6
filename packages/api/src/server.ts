import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type Koa from 'koa';
import { Client, Connection } from '@temporalio/client';
import { pino, type Logger } from 'pino';
import { monitorEngine, pingEngine } from '@skein/settings';
import { startTracing, traceFields } from '@skein/telemetry';
import { createApp } from './app.js';
import { API_VERSION } from './version.js';
import type { ApiConfig } from './config.js';
import { allRoutes } from './routes/index.js';
import type { ApiState, Deps } from './route.js';
import { clientErrorHandler } from './client-errors.js';
import { bearerCheck } from './middleware/auth.js';
import { TraceReader } from './temporal/trace-reader.js';
import { CatalogCache } from './temporal/catalog.js';
import { HistoryTokens } from './temporal/history-token.js';
import { EngineCallPolicy } from './temporal/deadline.js';
import { GRPC, grpcCode } from './temporal/engine.js';
import { engineCallMetrics } from './metrics/engine-calls.js';
import { ApiMetrics } from './metrics/registry.js';

/** How long a client has to send a request's headers, ms (then 408 and the connection closed). */
export const REQUEST_HEADERS_TIMEOUT_MS = 10_000;
/** How long a client has to send a whole request, headers and body, ms (then 408 and the connection closed). */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A running (or ready to run) API server; see {@link createApiServer}. */
export interface ApiServer {
  /** Starts listening on `config.host:config.port` (port 0 = any free port). */
  listen(): Promise<{ url: string; port: number }>;
  /**
   * Graceful stop: stop accepting connections, close history streams, let in-flight requests finish for up to
   * 10 s (then abort them), close the Temporal connection if this server opened it. Idempotent.
   */
  close(): Promise<void>;
  /** Registers a callback fired once when the engine health check failed `SKEIN_ENGINE_CHECK_FAILURES` times in a row. */
  onFatal(cb: (reason: string) => void): void;
  app: Koa<ApiState>;
}

/** Options of {@link createApiServer}. */
export interface ApiServerOptions {
  /** Logger (default: pino JSON at the configured `SKEIN_LOG_LEVEL`, `trace_id`/`span_id` while a span is active). */
  logger?: Logger;
  /**
   * A connected Temporal client to use instead of opening one from `config.temporal` (not closed by `close()`).
   * Its calls are neither timed in `/metrics` nor traced: those are set up on the connection and client the
   * server opens itself.
   */
  client?: Client;
  /** How long a client has to send a request's headers, and the whole request, ms (default 10 000 and 30 000). */
  requestTimeouts?: { headersMs: number; requestMs: number };
}

/** Raised by {@link createApiServer} when the engine cannot be reached; its message is one line. */
export class EngineUnavailableError extends Error {
  override name = 'EngineUnavailableError';
}

function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!.trim();
}

/**
 * Creates the API server: connects to Temporal (unless `options.client` is given), checks the engine answers,
 * and composes the Koa app with every route. Call `listen()` to serve.
 * @throws EngineUnavailableError (one-line message) when the engine is unreachable at startup.
 */
export async function createApiServer(config: ApiConfig, options: ApiServerOptions = {}): Promise<ApiServer> {
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'skein-api' }, mixin: traceFields });
  let connection: Connection | undefined;
  let client = options.client;
  const callPolicy = new EngineCallPolicy(config.engineTimeoutMs);
  const health = { healthy: true };
  const metrics = new ApiMetrics(() => health.healthy);
  // Tracing (OTEL_EXPORTER_OTLP_ENDPOINT set): the SDK, the request span and the client interceptor load only then.
  const tracing = await startTracing({ defaultServiceName: 'skein-api', serviceVersion: API_VERSION, logger, onDropped: (n) => metrics.droppedSpans(n) });
  const traced = tracing
    ? await Promise.all([import('./middleware/tracing.js'), import('@temporalio/interceptors-opentelemetry/lib/client/index.js')])
    : undefined;
  const address = config.temporal.connection.address ?? 'localhost:7233';
  if (!client) {
    try {
      connection = await Connection.connect({
        ...config.temporal.connection,
        connectTimeout: '5s',
        // Metrics first: one observation per call, whatever number of attempts the retry policy makes.
        interceptors: [engineCallMetrics(metrics), ...callPolicy.interceptors],
      });
    } catch (err) {
      await tracing?.shutdown();
      throw new EngineUnavailableError(`Cannot reach the Temporal server at ${address}: ${oneLine(err)}`);
    }
    client = new Client({
      connection,
      namespace: config.temporal.namespace,
      ...(tracing && traced ? { interceptors: { workflow: [new traced[1].OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] } } : {}),
    });
  }
  try {
    await pingEngine(client, 5_000, config.temporal.namespace);
  } catch (err) {
    await callPolicy.retriesSettled();
    await connection?.close().catch(() => {});
    await tracing?.shutdown();
    throw new EngineUnavailableError(
      grpcCode(err) === GRPC.NOT_FOUND
        ? `Temporal server at ${address} has no namespace "${config.temporal.namespace}" (TEMPORAL_NAMESPACE): ${oneLine(err)}`
        : `Temporal server at ${address} does not answer: ${oneLine(err)}`,
    );
  }

  const hardStop = new AbortController();
  const closing = new AbortController();
  const graceOver = new AbortController();
  const catalogs = new CatalogCache(client, config.catalogCacheMs, closing.signal, metrics);
  const deps: Deps = {
    client,
    config,
    catalogs,
    traces: new TraceReader((catalog, runBuildId) => catalogs.traceDirs(catalog, runBuildId), config),
    health,
    shutdown: hardStop.signal,
    closing: closing.signal,
    graceOver: graceOver.signal,
    logger,
    metrics,
    historyTokens: new HistoryTokens(config.historyTokenKey ?? undefined),
  };
  const app = createApp(
    deps,
    allRoutes,
    tracing && traced ? { tracing: (routeOf) => traced[0].requestTracing(tracing.tracer, routeOf, bearerCheck(config.apiToken)) } : {},
  );

  const fatalCallbacks: Array<(reason: string) => void> = [];
  let fatal = false;
  const engineMonitor = monitorEngine(client, {
    ...config.engineCheck,
    address,
    namespace: config.temporal.namespace,
    logger,
    health: deps.health,
    onLost(reason) {
      fatal = true;
      for (const cb of fatalCallbacks) cb(reason);
    },
  });

  // A client gets REQUEST_HEADERS_TIMEOUT_MS to send its headers and REQUEST_TIMEOUT_MS to send its whole request
  // (at most 1 MiB; the time to answer is not counted): Node's defaults (60 s and 300 s, checked every 30 s) let a
  // client that stops sending hold a connection for minutes. Node answers 408 and closes the connection.
  const server = http.createServer(
    {
      headersTimeout: options.requestTimeouts?.headersMs ?? REQUEST_HEADERS_TIMEOUT_MS,
      requestTimeout: options.requestTimeouts?.requestMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1_000, options.requestTimeouts?.headersMs ?? 1_000),
    },
    // Koa's request handler settles every request itself (its error path answers), so its promise is not awaited.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    app.callback(),
  );
  server.keepAliveTimeout = 5_000;
  server.on('clientError', clientErrorHandler(logger));
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  let inFlight = 0;
  let drained: (() => void) | undefined;
  server.on('request', (_req, res) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    });
  });
  /** Resolves once no request is in flight, or after `ms`. */
  const drain = (ms: number) =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });

  let closePromise: Promise<void> | undefined;
  /** After the grace: how long requests told to stop waiting have to write their answer before sockets close. */
  const ANSWER_AFTER_GRACE_MS = 1_000;
  async function doClose(): Promise<void> {
    engineMonitor.stop();
    const stopped = new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
    closing.abort(new Error('server closing'));
    server.closeIdleConnections();
    // With the engine lost, in-flight requests fail within the 2 s retry budget: do not wait the full grace.
    await drain(fatal ? Math.min(config.shutdownGraceMs, 2_500) : config.shutdownGraceMs);
    // Requests still waiting on a run are answered (408: it keeps running) rather than cut off with the socket.
    graceOver.abort(new Error('shutdown grace over'));
    await drain(ANSWER_AFTER_GRACE_MS);
    hardStop.abort(new Error('server stopped'));
    server.closeAllConnections();
    for (const s of sockets) s.destroy();
    await stopped;
    if (connection) {
      await callPolicy.retriesSettled();
      await connection.close().catch(() => {});
    }
    await tracing?.shutdown();
    logger.info('API server closed');
  }

  return {
    app,
    listen() {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          const { port } = server.address() as AddressInfo;
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          const url = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
          logger.info(
            {
              url,
              version: API_VERSION,
              temporal: { address, namespace: config.temporal.namespace },
              defaultCatalog: config.defaultCatalog,
              auth: config.apiToken === null ? 'none' : 'bearer token',
              tracing: tracing !== undefined,
              metricsPublic: config.metricsPublic,
            },
            'API listening',
          );
          resolve({ url, port });
        });
      });
    },
    close() {
      closePromise ??= doClose();
      return closePromise;
    },
    onFatal(cb) {
      fatalCallbacks.push(cb);
    },
  };
}
