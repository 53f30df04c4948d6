import { hostname } from 'node:os';
import type { Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A process's tracing for one service; see {@link startTracing}. */
export interface Tracing {
  /** The service's tracer (its spans carry the service's resource). */
  tracer: Tracer;
  /** The span processor (batching, bounded queue): also the sink of spans made elsewhere, e.g. in the workflow sandbox. */
  spanProcessor: SpanProcessor;
  /**
   * The service's resource: `service.name`, `service.instance.id` (`<pid>@<host>`), `host.name`, `process.pid`,
   * `service.version` when given, then `OTEL_RESOURCE_ATTRIBUTES` over them.
   */
  resource: Resource;
  /** Spans dropped so far: queue full (collector slow) or export failed (collector unreachable). */
  dropped(): number;
  /** Exports what is queued (waiting at most `timeoutMs`, default 5 000 ms) and stops. Idempotent. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/** Options of {@link startTracing}. */
export interface TracingOptions {
  /** `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names one (`skein-api`, `skein-worker`). */
  defaultServiceName: string;
  /** `service.version` (the Skein package's version) unless `OTEL_RESOURCE_ATTRIBUTES` sets one. */
  serviceVersion?: string;
  /** Where dropped spans are reported, at most once a minute. */
  logger?: { warn(fields: object, message: string): void };
  /** Called with the number of spans dropped each time some are (to count them in the process's metrics). */
  onDropped?: (spans: number) => void;
}

/**
 * Whether tracing is on: an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), `OTEL_SDK_DISABLED` is not `true` and `OTEL_TRACES_EXPORTER` is not
 * `none`.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Reads the active span's ids; set once tracing started (until then, log lines get nothing). */
let activeIds: (() => { trace_id: string; span_id: string } | undefined) | undefined;

/**
 * pino `mixin`: `{ trace_id, span_id }` of the span active where the line is logged, `{}` when none is or
 * tracing is off (then it costs one call).
 */
export function traceFields(): object {
  return activeIds?.() ?? {};
}

/** The global context manager and W3C propagators are installed once per process (by the first service). */
let globalsInstalled = false;

/**
 * Starts tracing for one service of this process, when {@link tracingEnabled}; resolves to undefined otherwise
 * (nothing is loaded). Standard `OTEL_*` variables apply: the OTLP exporter by `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`
 * / `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf` by default, `grpc`, `http/json`) with its endpoint, headers and
 * timeout variables; `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`; the sampler (`OTEL_TRACES_SAMPLER`,
 * `OTEL_TRACES_SAMPLER_ARG`, parent-based always-on by default); the batch processor's bounds (`OTEL_BSP_*`,
 * queue 2 048 spans by default); `OTEL_PROPAGATORS` (W3C trace context and baggage by default).
 * Exporting never blocks the caller: spans queue in a bounded buffer, a full buffer or a failed export drops
 * spans, counted by {@link Tracing.dropped} and logged at most once a minute.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  // The SDK's own parts (resource detection, exporters, batch processor) read process.env: so does this.
  const env = process.env;
  if (!tracingEnabled(env)) return undefined;
  const [api, core, resources, base, node, semconv] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const detected = resources.detectResourcesSync({ detectors: [resources.envDetectorSync] });
  const named = detected.attributes[semconv.ATTR_SERVICE_NAME] !== undefined;
  // Which process made a span (two attempts of one activity on two workers of a fleet): the identity Temporal gives
  // a worker (`<pid>@<host>`), the host and the version; `OTEL_RESOURCE_ATTRIBUTES` overrides any of them.
  const processAttributes = {
    'service.instance.id': `${process.pid}@${hostname()}`,
    'host.name': hostname(),
    'process.pid': process.pid,
    ...(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
  };
  const resource = resources.Resource.default()
    .merge(named ? null : new resources.Resource({ [semconv.ATTR_SERVICE_NAME]: options.defaultServiceName }))
    .merge(new resources.Resource(processAttributes))
    .merge(detected);

  const exporter = await otlpExporter(env);
  const maxQueueSize = positive(env.OTEL_BSP_MAX_QUEUE_SIZE, 2048);
  let queued = 0;
  let dropped = 0;
  const drop = (n: number) => {
    dropped += n;
    options.onDropped?.(n);
  };
  const counting: import('@opentelemetry/sdk-trace-base').SpanExporter = {
    export(spans, done) {
      queued -= spans.length;
      exporter.export(spans, (result) => {
        if (result.code !== core.ExportResultCode.SUCCESS) drop(spans.length);
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new base.BatchSpanProcessor(counting, { maxQueueSize });
  // The bound is kept here, in front of the batch processor, so that every span it drops is counted.
  const spanProcessor: import('@opentelemetry/sdk-trace-base').SpanProcessor = {
    onStart: (span, context) => batch.onStart(span, context),
    onEnd(span) {
      if (queued >= maxQueueSize) {
        drop(1);
        return;
      }
      queued += 1;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
  const provider = new node.NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  if (!globalsInstalled) {
    globalsInstalled = true;
    provider.register();
    activeIds = () => {
      const span = api.trace.getSpan(api.context.active());
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    };
  }
  let reported = 0;
  const timer = setInterval(() => {
    if (dropped === reported) return;
    options.logger?.warn({ dropped: dropped - reported, droppedTotal: dropped }, 'trace spans dropped: the OTLP collector is unreachable or too slow');
    reported = dropped;
  }, 60_000);
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('skein'),
    spanProcessor,
    resource,
    dropped: () => dropped,
    shutdown(timeoutMs = 5_000) {
      stopping ??= (async () => {
        clearInterval(timer);
        let timeout: NodeJS.Timeout | undefined;
        await Promise.race([provider.shutdown().catch(() => {}), new Promise<void>((resolve) => (timeout = setTimeout(resolve, timeoutMs).unref()))]);
        clearTimeout(timeout);
      })();
      return stopping;
    },
  };
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The OTLP span exporter of the configured protocol; it reads its endpoint, headers and timeout from `OTEL_*`. */
async function otlpExporter(env: NodeJS.ProcessEnv): Promise<import('@opentelemetry/sdk-trace-base').SpanExporter> {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'grpc') return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}
