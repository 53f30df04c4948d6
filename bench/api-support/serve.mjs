/** Runs only the API in this process (for benchmarks that measure its memory); prints `READY <url>` on stdout. */
import { pino } from 'pino';
import { createApiServer, loadApiConfig } from '@skein/api';

const api = await createApiServer(loadApiConfig({ ...process.env, PORT: '0' }), { logger: pino({ level: 'silent' }) });
const { url } = await api.listen();
process.stdout.write(`READY ${url}\n`);
process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
// `mem` over IPC: answers process memory after a full GC (the benchmark spawns this with --expose-gc).
process.on('message', (m) => {
  if (m !== 'mem') return;
  globalThis.gc?.();
  process.send?.(process.memoryUsage());
});
