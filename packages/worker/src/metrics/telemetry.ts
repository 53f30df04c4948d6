/**
 * The worker's telemetry, set up once per start: metrics through Temporal Core's exporter (`temporal_*` and
 * Skein's `skein_*`), OpenTelemetry tracing when an OTLP endpoint is configured, and what each adds to the
 * Temporal worker (sinks, activity interceptors) and to Skein's own pieces (cost listeners, counted trace
 * exporters). With both off, nothing of OpenTelemetry loads and the worker runs as before.
 */
import diagnostics_channel from 'node:diagnostics_channel';
import { on, type CostPayload, type LlmUsagePayload } from '@skein/core';
import { startTracing, type Tracing } from '@skein/telemetry';
import { Runtime, type ActivityInterceptorsFactory, type InjectedSinks } from '@temporalio/worker';
import type { Sinks, WorkflowInfo } from '@temporalio/workflow';
import type { Logger } from 'pino';
import type { MetricsConfig } from '../host/config.js';
import { currentVersions } from '../deploy/build/build-dir.js';
import { installTemporalRuntime } from '../host/logger.js';
import { coreMetricsExporter, resolveMetrics } from './exporter.js';
import { WorkerMetrics } from './worker-metrics.js';
import { untracedSinks, workflowSpanInfo } from '../interceptors/workflow-tracing.js';
import { TRACE_EXPORT_CHANNEL, type TraceExportOutcome } from '../traces/outcome.js';
import type { TraceExporter } from '../traces/types.js';

/** A worker's telemetry; see {@link startWorkerTelemetry}. */
export interface WorkerTelemetry {
  /** Where the metrics are (scrape URL or OTLP collector) and Skein's recorder; undefined when metrics are off. */
  metrics: { kind: 'prometheus' | 'otlp'; url: string; recorder: WorkerMetrics } | undefined;
  /** OpenTelemetry tracing; undefined when off. */
  tracing: Tracing | undefined;
  /** Sinks and activity interceptors tracing adds to `Worker.create` (when off: the `exporter` sink dropping spans, no interceptor). */
  worker: { sinks: InjectedSinks<Sinks>; activityInterceptors: ActivityInterceptorsFactory[] };
  /** A hook error reporter that also counts the error in `skein_hook_errors_total` (when metrics are on). */
  countingHookErrors(report: (err: unknown, hook: string) => void): (err: unknown, hook: string) => void;
  /** Counts each remote trace export's outcome (when metrics are on). */
  countExports(exporters: TraceExporter[] | undefined): TraceExporter[] | undefined;
  /** Stops listening to cost events and exports the spans still queued. */
  close(): Promise<void>;
}

/**
 * Installs Temporal's Runtime (with the metrics exporter when `metrics` is set), starts tracing when configured,
 * and subscribes Skein's cost counters. Call once per worker start, before the engine connections open.
 * @param metrics the metrics setting (`false`/undefined = off).
 */
export async function startWorkerTelemetry(logger: Logger, metrics: MetricsConfig | false | null | undefined): Promise<WorkerTelemetry> {
  const wanted = metrics ? await resolveMetrics(metrics) : undefined;
  const runtime = installTemporalRuntime(logger, wanted && coreMetricsExporter(wanted));
  if (wanted && !runtime.metrics) logger.warn("metrics are off: Temporal's Runtime was installed before this worker started, without them");
  const recorder = runtime.metrics && wanted ? new WorkerMetrics(Runtime.instance().metricMeter) : undefined;
  const tracing = await startTracing({
    defaultServiceName: 'skein-worker',
    serviceVersion: currentVersions().skein,
    logger,
    ...(recorder ? { onDropped: (n: number) => recorder.droppedSpans(n) } : {}),
  });
  // Runs traced by a worker with tracing on keep their spans on every worker that later replays them (one
  // bundle serves both settings, `tracing-interceptors.cts`): without tracing, their spans are dropped here.
  const worker: WorkerTelemetry['worker'] = { sinks: untracedSinks(), activityInterceptors: [] };
  if (tracing) {
    const otel = await import('@temporalio/interceptors-opentelemetry/lib/worker/index.js');
    // Workflow spans leave the sandbox through the `exporter` sink; each activity runs inside its own span.
    // OpenTelemetry's exporter copies the info it is handed onto every span: it gets the run's identity only.
    const { export: exportSink } = otel.makeWorkflowExporter(tracing.spanProcessor, tracing.resource);
    const exported: typeof exportSink = {
      ...exportSink,
      fn: (info, spans: Parameters<typeof exportSink.fn>[1]) => exportSink.fn(workflowSpanInfo(info) as unknown as WorkflowInfo, spans),
    };
    worker.sinks = { exporter: { export: exported } };
    // Tracing's activity interceptor goes first: Skein's runs inside the activity's span.
    worker.activityInterceptors = [
      (ctx) => ({
        inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
        outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ];
  }
  // Listened to only while metrics are on: a listener makes every emit build its event.
  const unsubscribe = recorder ? [...subscribeCosts(recorder), subscribeTraceExports(recorder)] : [];
  return {
    metrics: recorder && wanted ? { kind: wanted.kind, url: wanted.url, recorder } : undefined,
    tracing,
    worker,
    countingHookErrors: (report) => (err, hook) => {
      recorder?.hookError(hook);
      report(err, hook);
    },
    countExports: (exporters) => (recorder ? exporters?.map((e) => countedExporter(e, recorder)) : exporters),
    async close() {
      for (const off of unsubscribe) off();
      await tracing?.shutdown();
    },
  };
}

/** Cost events as metrics by workflow type: `cost:llm:request` (cost and tokens), `cost:http:request` (cost). */
function subscribeCosts(recorder: WorkerMetrics): Array<() => void> {
  return [
    on<LlmUsagePayload>('cost:llm:request', (e) => {
      const type = e.workflowDetails?.workflowType ?? 'unknown';
      recorder.cost(type, 'llm', e.payload?.cost);
      recorder.tokens(type, e.payload?.inputTokens, e.payload?.outputTokens);
    }),
    on<CostPayload>('cost:http:request', (e) => recorder.cost(e.workflowDetails?.workflowType ?? 'unknown', 'http', e.payload?.cost)),
  ];
}

/** Counts the trace deliveries the trace code reports (local file, remote upload attempts) by destination and outcome. */
function subscribeTraceExports(recorder: WorkerMetrics): () => void {
  const listener = (message: unknown) => {
    const outcome = message as TraceExportOutcome;
    recorder.traceExport(outcome.destination, outcome.ok ? 'ok' : 'failed');
  };
  diagnostics_channel.subscribe(TRACE_EXPORT_CHANNEL, listener);
  return () => diagnostics_channel.unsubscribe(TRACE_EXPORT_CHANNEL, listener);
}

/** A trace exporter that counts each export's outcome in `skein_trace_exports_total`, then passes the error on. */
function countedExporter(exporter: TraceExporter, recorder: WorkerMetrics): TraceExporter {
  return {
    name: exporter.name,
    async export(trace, destinations) {
      try {
        await exporter.export(trace, destinations);
        recorder.traceExport(exporter.name, 'ok');
      } catch (err) {
        recorder.traceExport(exporter.name, 'failed');
        throw err;
      }
    },
  };
}
