/**
 * One side of the observability benchmark, in a process of its own so that tracing and metrics (process-wide:
 * OpenTelemetry's context manager, Temporal's Runtime) stay on one side only. Serves `BENCH_PROJECT` on
 * `SKEIN_CATALOG` against `TEMPORAL_ADDRESS`: a worker, plus the API when `BENCH_API=1`. Tracing follows the
 * `OTEL_*` variables, metrics `SKEIN_METRICS_PORT`. Prints `READY <api url or ->` on stdout; SIGTERM stops it.
 */
import { pino } from 'pino';
import { startWorker } from '@skein/worker';
import { createApiServer, loadApiConfig } from '@skein/api';

const logger = pino({ level: 'silent' });
const worker = await startWorker({
  projectDir: process.env.BENCH_PROJECT,
  catalog: process.env.SKEIN_CATALOG,
  engine: { address: process.env.TEMPORAL_ADDRESS },
  logger,
  traceDir: false,
});
let api;
if (process.env.BENCH_API === '1') api = await createApiServer(loadApiConfig({ ...process.env, PORT: '0' }), { logger });
const url = api ? (await api.listen()).url : '-';
process.stdout.write(`READY ${url} ${worker.metrics?.url ?? '-'}\n`);
process.on('SIGTERM', () => void Promise.all([api?.close(), worker.shutdown()]).then(() => process.exit(0)));
