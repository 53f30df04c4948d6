/** Runs only the API in this process (for benchmarks that measure its memory); prints `READY <url>` on stdout. */
import { pino } from 'pino';
import { createApiServer, holdYoungGeneration, loadApiConfig } from '@skein/api';

const api = await createApiServer(loadApiConfig({ ...process.env, PORT: '0' }), { logger: pino({ level: 'silent' }) });
const { url } = await api.listen();
// As `skein api` does once it listens (unless BENCH_API_HEAP=default, to measure without).
if (process.env.BENCH_API_HEAP !== 'default') holdYoungGeneration();
process.stdout.write(`READY ${url}\n`);
process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
// `mem` over IPC: answers process memory after a full GC (the benchmark spawns this with --expose-gc).
process.on('message', (m) => {
  if (m !== 'mem') return;
  globalThis.gc?.();
  process.send?.(process.memoryUsage());
});
