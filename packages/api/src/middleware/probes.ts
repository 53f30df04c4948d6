/**
 * Health probes and metrics scrapes (`<METHOD> <path>`): an orchestrator and Prometheus ask every few seconds, so the
 * request log writes them at debug and the request tracing makes no span for them.
 */
export const PROBE_ROUTES: ReadonlySet<string> = new Set(['GET /health', 'GET /ready', 'GET /metrics']);
