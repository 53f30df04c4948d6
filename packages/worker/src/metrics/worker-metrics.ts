/**
 * Skein's own worker metrics (`skein_*`), recorded through Temporal Core's metric meter so that the one exporter
 * Core runs (Prometheus or OTLP) carries them next to Core's `temporal_*` metrics. With metrics off the meter is
 * Temporal's no-op meter and nothing here costs more than a call. Label values are bounded by the project's
 * code: activity types, kinds, workflow types, hook names, exporter names; never ids.
 */
import type { MetricCounter, MetricHistogram, MetricMeter } from '@temporalio/common';
import type { OutputActivityKind } from '@skein/core';

/** Histogram bucket bounds of Skein's histograms, by metric name (Core's exporter takes them at install). */
export const SKEIN_HISTOGRAM_BUCKETS: Record<string, number[]> = {
  skein_worker_validation_duration_seconds: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  skein_cost_usd: [0.0001, 0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 10],
};

/** Where a cost event came from: `cost:llm:request` or `cost:http:request`. */
export type CostSource = 'llm' | 'http';

/** The worker's `skein_*` metrics; each method records one fact. */
export class WorkerMetrics {
  readonly #validation: MetricHistogram;
  readonly #bundleCache: MetricCounter;
  readonly #traceExports: MetricCounter;
  readonly #hookErrors: MetricCounter;
  readonly #activities: MetricCounter;
  readonly #cost: MetricHistogram;
  readonly #tokens: MetricCounter;
  readonly #droppedSpans: MetricCounter;

  /** @param meter Temporal's `Runtime.instance().metricMeter` (or any `MetricMeter`). */
  constructor(meter: MetricMeter) {
    this.#validation = meter.createHistogram(
      'skein_worker_validation_duration_seconds',
      'float',
      's',
      'Static validation of the project at worker start, in seconds; cache="hit" when the outcome came from the startup cache.',
    );
    this.#bundleCache = meter.createCounter(
      'skein_worker_bundle_cache_total',
      '',
      'Workflow bundle cache lookups at worker start, by result ("hit" | "miss").',
    );
    this.#traceExports = meter.createCounter(
      'skein_trace_exports_total',
      '',
      'Finished run traces handed to a trace destination, by destination ("local" for the trace folder, "remote" for the S3 upload, else a custom exporter\'s name) and outcome ("ok" | "failed").',
    );
    this.#hookErrors = meter.createCounter('skein_hook_errors_total', '', 'Hook callbacks that threw or rejected, by hook (lifecycle hook or event name).');
    this.#activities = meter.createCounter(
      'skein_activity_outcomes_total',
      '',
      'Finished activity attempts by activity type, kind ("step" | "evaluator" | "internal_step") and outcome ("completed" | "failed").',
    );
    this.#cost = meter.createHistogram(
      'skein_cost_usd',
      'float',
      'USD',
      'Cost reported by one cost event, in USD, by workflow type and source ("llm": cost:llm:request, "http": cost:http:request).',
    );
    this.#tokens = meter.createCounter(
      'skein_llm_tokens_total',
      '',
      'LLM tokens reported by cost:llm:request events, by workflow type and direction ("input" | "output").',
    );
    this.#droppedSpans = meter.createCounter(
      'skein_trace_spans_dropped_total',
      '',
      'OpenTelemetry spans dropped because the export queue was full or an export failed.',
    );
  }

  /** Counts spans the tracer dropped. */
  droppedSpans(spans: number): void {
    this.#droppedSpans.add(spans);
  }

  /** Records a start: its validation's duration (ms) and cache (none for a start from a build), and the bundle cache's answer. */
  startup(startup: { validateMs: number; validationCache: 'hit' | 'miss' | 'off'; bundleCache: 'hit' | 'miss' | 'off' | 'build' }): void {
    // A worker started from a build validates nothing (the build was validated when it was made).
    if (startup.bundleCache !== 'build') this.validation(startup.validateMs, startup.validationCache);
    this.bundleCache(startup.bundleCache);
  }

  /** Records the startup validation's duration (ms) and whether its outcome was cached. */
  validation(ms: number, cache: 'hit' | 'miss' | 'off'): void {
    this.#validation.record(ms / 1000, { cache });
  }

  /** Counts a bundle cache lookup (nothing when the cache is off or the bundle came from a build). */
  bundleCache(result: 'hit' | 'miss' | 'off' | 'build'): void {
    if (result === 'hit' || result === 'miss') this.#bundleCache.add(1, { result });
  }

  /** Counts one trace handed to a destination (the local folder, the S3 upload, a custom exporter). */
  traceExport(destination: string, outcome: 'ok' | 'failed'): void {
    this.#traceExports.add(1, { destination, outcome });
  }

  /** Counts a hook callback that failed. */
  hookError(hook: string): void {
    this.#hookErrors.add(1, { hook });
  }

  /** Counts one finished activity attempt. */
  activityOutcome(activityType: string, kind: OutputActivityKind, outcome: 'completed' | 'failed'): void {
    this.#activities.add(1, { activity_type: activityType, kind, outcome });
  }

  /** Records a cost event's cost (USD, ignored unless a finite non-negative number) under its workflow type. */
  cost(workflowType: string, source: CostSource, usd: unknown): void {
    const value = Number(usd);
    if (Number.isFinite(value) && value >= 0) this.#cost.record(value, { workflow_type: workflowType, source });
  }

  /** Adds an LLM request's tokens (non-negative integers; anything else is ignored). */
  tokens(workflowType: string, input: unknown, output: unknown): void {
    for (const [direction, raw] of [
      ['input', input],
      ['output', output],
    ] as const) {
      const n = Number(raw);
      if (Number.isInteger(n) && n > 0) this.#tokens.add(n, { workflow_type: workflowType, direction });
    }
  }
}
