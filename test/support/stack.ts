import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { pino, type Logger } from 'pino';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startWorker, type SkeinWorker } from '@skein/worker';

/** Repository root, for fixture and example paths. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** A worker and an API on one project, on a catalog of their own, against the shared dev server. */
export interface Stack {
  url: string;
  catalog: string;
  address: string;
  worker: SkeinWorker;
  api: ApiServer;
  /** POSTs JSON (or a raw string body) and returns status, headers and parsed JSON body. */
  post(route: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  get(route: string): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * The local trace folder of every worker the run starts on `projectDir` with its traces in a folder of the test's
 * choosing: one per project for the whole run (under the global setup's `traceRoot`), made if missing. The folder
 * is compiled into the workflow bundle, so workers given the same one share one cached bundle where a folder per
 * file would rebundle the project for each. Trace files are named by workflow and run id, so files never meet in it.
 */
export function sharedTraceDir(projectDir: string): string {
  const dir = path.join(inject('traceRoot'), path.basename(path.resolve(repoRoot, projectDir)));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Starts a worker on `projectDir` and the API (port 0) on a unique catalog, so test files never see each
 * other's workflows. Logs are silenced unless `SKEIN_TEST_LOGS=1`; `apiLogger` takes the API's instead (a test that
 * reports what the API logged).
 */
export async function startStack(
  projectDir: string,
  env: Record<string, string> = {},
  workerOptions: Partial<Parameters<typeof startWorker>[0]> = {},
  { apiLogger }: { apiLogger?: Logger } = {},
): Promise<Stack> {
  const address = inject('temporalAddress');
  const catalog = `t${process.pid}-${Date.now()}-${counter++}`;
  const logger = pino({ level: process.env.SKEIN_TEST_LOGS ? 'debug' : 'silent' });
  const root = path.resolve(repoRoot, projectDir);
  const worker = await startWorker({
    projectDir: root,
    catalog,
    engine: { address },
    logger,
    ...workerOptions,
  });
  const api = await createApiServer(loadApiConfig({ ...process.env, ...env, TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), {
    logger: apiLogger ?? logger,
  });
  const { url } = await api.listen();
  const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + route, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  return {
    url,
    catalog,
    address,
    worker,
    api,
    post: (route, body, headers) => call('POST', route, body, headers),
    get: (route) => call('GET', route),
    async close() {
      await api.close();
      await worker.shutdown();
    },
  };
}
