/**
 * Shared setup of the API benchmarks: a Temporal dev server (TEMPORAL_ADDRESS if set, else one started with
 * @skein/cli's harness), a Skein worker serving fixtures/projects/api-suite on a fresh catalog, and the API on
 * a free loopback port. Run `npm run build` first.
 */
import path from 'node:path';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { startWorker } from '@skein/worker';
import { createApiServer, loadApiConfig } from '@skein/api';
import { locateTemporal, startDevServer } from '@skein/dev-server';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/projects/api-suite');

export async function startStack(env = {}) {
  let devServer;
  let address = process.env.TEMPORAL_ADDRESS;
  if (!address) {
    const temporal = await locateTemporal({ install: true });
    devServer = await startDevServer({ binary: temporal.path, onOutput: () => {} });
    address = devServer.address;
  }
  const logger = pino({ level: 'silent' });
  const catalog = env.SKEIN_CATALOG ?? `bench-${Date.now()}`;
  const traceDir = mkdtempSync(path.join(tmpdir(), 'skein-bench-traces-'));
  const worker = await startWorker({
    projectDir: PROJECT_DIR,
    catalog,
    engine: { address, namespace: 'default' },
    logger,
    traceDir: process.env.BENCH_TRACES === '1' ? traceDir : false,
  });
  const api = await createApiServer(loadApiConfig({ PORT: '0', SKEIN_CATALOG: catalog, TEMPORAL_ADDRESS: address, ...env }), { logger });
  const { url } = await api.listen();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace: 'default' });
  return {
    url,
    catalog,
    address,
    client,
    api,
    async close() {
      await api.close();
      await worker.shutdown();
      await connection.close();
      await devServer?.stop();
    },
  };
}

/**
 * Starts the API alone in a child process (as in production, where clients are elsewhere) serving `catalog` on
 * `address`. Resolves with its URL, its `pid`, a `memory()` probe (process memory after a full GC) and `stop()`.
 * `serveScript` runs another checkout's API (its own `bench/api-support/serve.mjs`), to compare side by side.
 * `nodeArgs` are extra Node flags for the child (for example `['--cpu-prof', '--cpu-prof-dir', dir]` to profile it).
 */
export async function spawnApi(stack, env = {}, serveScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve.mjs'), nodeArgs = []) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['--expose-gc', ...nodeArgs, serveScript], {
    env: { ...process.env, SKEIN_CATALOG: stack.catalog, TEMPORAL_ADDRESS: stack.address, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /READY (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`API exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid,
    memory: () =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send('mem');
      }),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms, from `/proc/<pid>/stat` (Linux; 10 ms ticks). */
export function cpuMsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Percentile (0–100) of a list of numbers. */
export function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

export const fmt = (n, d = 1) => Number(n).toFixed(d);
