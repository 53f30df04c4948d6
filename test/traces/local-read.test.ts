import { execFileSync } from 'node:child_process';
import { linkSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { PROJECT_DIR } from '../api/support.js';

/**
 * The API's local trace read, attacked: the API has no `SKEIN_TRACE_DIR`, so it reads only the folder the live
 * workers of the catalog's current build advertise. A closed or forged catalog document that names another folder
 * is not read, a worker started after such a document does not take its folders over, and a FIFO, a hard link or
 * an oversized file at a run's trace path is refused at once (the API's thread pool stays free).
 */
const address = inject('temporalAddress');
const catalog = `shield-local-${process.pid}-${Date.now()}`;
const logger = pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' });
const base = mkdtempSync(path.join(tmpdir(), 'skein-shield-local-'));
const firstDir = path.join(base, 'first');
const secondDir = path.join(base, 'second');
let connection: Connection;
let client: Client;
let api: ApiServer;
let url: string;
let worker: SkeinWorker | undefined;

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const run = (workflowId?: string) =>
  fetch(`${url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'echo', input: { t: 1 }, ...(workflowId ? { workflowId } : {}) }),
  }).then(json);
const traceLog = (r: { workflowId: string; runId: string }) =>
  fetch(`${url}/workflow/${encodeURIComponent(r.workflowId)}/runs/${r.runId}/trace-log`).then(json);

/** Publishes a `$catalog` document for `catalog` that nobody serves, advertising `traceDirs`; closed when `close`. */
async function forgeCatalogDocument(traceDirs: string[], close: boolean): Promise<void> {
  const handle = await client.workflow.start('$catalog', {
    workflowId: `$catalog:${catalog}`,
    taskQueue: catalog,
    args: [],
    memo: {
      catalog: {
        catalog,
        publishedAt: Date.now(),
        version: 'forged',
        identity: 'forger',
        deployment: { name: catalog, buildId: 'forged' },
        traceDirs,
        workflows: [],
        sharedActivities: [],
      },
    },
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
  });
  if (close) await handle.terminate('forged and closed');
}

beforeAll(async () => {
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: 'default' });
  api = await createApiServer(
    loadApiConfig({ PORT: '0', SKEIN_CATALOG: catalog, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', SKEIN_CATALOG_CACHE_MS: '0' }),
    {
      logger,
    },
  );
  url = (await api.listen()).url;
});

afterAll(async () => {
  await worker?.shutdown();
  await api?.close();
  await connection?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('trace folders come only from the live current build', () => {
  let earlier: { workflowId: string; runId: string };

  it("reads a run's trace from the folder its worker advertises, and nothing once that worker stopped", async () => {
    worker = await startWorker({ projectDir: PROJECT_DIR, catalog, engine: { address, namespace: 'default' }, logger, traceDir: firstDir });
    expect(worker.catalogDocument.traceDirs).toEqual([firstDir]);
    const res = await run();
    expect(res.body.status).toBe('completed');
    earlier = { workflowId: res.body.workflowId, runId: res.body.runId };
    await expect.poll(async () => (await traceLog(earlier)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await traceLog(earlier)).body).toMatchObject({ source: 'local', location: res.body.trace.destinations.local });
    await worker.shutdown();
    worker = undefined;
    // The catalog is retired: no live worker advertises the folder any more.
    await expect.poll(async () => (await traceLog(earlier)).status, { timeout: 10_000, interval: 200 }).toBe(404);
  });

  it('does not read the folders of a closed or forged catalog document', async () => {
    await forgeCatalogDocument([firstDir], true);
    expect((await traceLog(earlier)).status).toBe(404);
    // Running, but its build has no live worker (no lease): still not read.
    await forgeCatalogDocument([firstDir], false);
    expect((await traceLog(earlier)).status).toBe(404);
  });

  it('a worker started after a forged document advertises its own folder only', async () => {
    worker = await startWorker({ projectDir: PROJECT_DIR, catalog, engine: { address, namespace: 'default' }, logger, traceDir: secondDir });
    expect(worker.catalogDocument.traceDirs).toEqual([secondDir]);
    const published = await client.workflow.getHandle(`$catalog:${catalog}`).describe();
    expect((published.memo?.catalog as { traceDirs?: string[] }).traceDirs).toEqual([secondDir]);
    const res = await run();
    await expect.poll(async () => (await traceLog(res.body)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    // The first folder is not the current build's: its run's trace is not read.
    expect((await traceLog(earlier)).status).toBe(404);
  });
});

describe('what lies at a trace path', () => {
  /** A completed run whose trace file has been written, and that file's path. */
  async function tracedRun(): Promise<{ workflowId: string; runId: string; file: string }> {
    const res = await run();
    expect(res.body.status).toBe('completed');
    const r = { workflowId: res.body.workflowId as string, runId: res.body.runId as string, file: res.body.trace.destinations.local as string };
    await expect.poll(async () => (await traceLog(r)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    return r;
  }

  it('a FIFO is refused at once, however often it is asked for, and the API keeps answering', async () => {
    const r = await tracedRun();
    rmSync(r.file);
    execFileSync('mkfifo', [r.file]);
    const started = performance.now();
    // More requests than libuv has threads (4): one blocked read each would hold them all.
    const replies = await Promise.all(Array.from({ length: 8 }, () => traceLog(r)));
    expect(replies.map((x) => x.status)).toEqual(Array(8).fill(404));
    expect(performance.now() - started).toBeLessThan(5_000);
    const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
    expect(health.status).toBe(200);
    // File-system work of the API still runs: another run's trace is read.
    const other = await tracedRun();
    expect((await traceLog(other)).body.source).toBe('local');
  });

  it('a hard link to a file outside the folder is refused', async () => {
    const r = await tracedRun();
    const outside = path.join(base, 'secret.json');
    writeFileSync(outside, JSON.stringify({ secret: 'do not serve' }));
    rmSync(r.file);
    linkSync(outside, r.file);
    const reply = await traceLog(r);
    expect(reply.status).toBe(404);
    expect(JSON.stringify(reply.body)).not.toContain('do not serve');
  });

  it('a file over the 50 MiB limit is refused without being read: three reads of 400 MB cost no memory', async () => {
    const r = await tracedRun();
    // Sparse: 400 MB that cost neither disk nor time to make. Read whole, three of them took an API past 1 GB.
    truncateSync(r.file, 400 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const replies = await Promise.all([traceLog(r), traceLog(r), traceLog(r)]);
    expect(replies.map((x) => x.status)).toEqual([404, 404, 404]);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });
});
