/**
 * `@skein/telemetry`: OpenTelemetry tracing for the API and the worker. Nothing of OpenTelemetry's SDK loads
 * unless {@link tracingEnabled} says so ({@link startTracing} imports it on demand); {@link traceFields} is the
 * pino mixin that puts `trace_id` and `span_id` on log lines written while a span is active.
 */
export { tracingEnabled, traceFields, startTracing, type Tracing, type TracingOptions } from './tracing.js';
