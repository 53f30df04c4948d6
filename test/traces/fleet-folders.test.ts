import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { PROJECT_DIR } from '../api/support.js';

/**
 * A fleet of one build whose workers write different trace folders (the build ID leaves the folder out): the
 * catalog document names only its publisher's folder, and the build's lease lists every live worker's, so the
 * API (without `SKEIN_TRACE_DIR` of its own) reads a run's trace whichever worker ran it. A worker that stops
 * stops writing its folder into the lease, so the folder leaves it within the TTL.
 */
const address = inject('temporalAddress');
const catalog = `fleet-folders-${process.pid}-${Date.now()}`;
const logger = pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' });
const base = mkdtempSync(path.join(tmpdir(), 'skein-fleet-folders-'));
const firstDir = path.join(base, 'first');
const secondDir = path.join(base, 'second');
let connection: Connection;
let client: Client;
let api: ApiServer;
let url: string;
const workers: SkeinWorker[] = [];

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const run = () =>
  fetch(`${url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'echo', input: { t: 1 } }),
  }).then(json);
const traceLog = (r: { workflowId: string; runId: string }) =>
  fetch(`${url}/workflow/${encodeURIComponent(r.workflowId)}/runs/${r.runId}/trace-log`).then(json);
const leaseFolders = async (buildId: string) => {
  const d = await client.workflow.getHandle(`$lease:${catalog}@${buildId}`).describe();
  return ((d.memo?.traceDirs as Array<{ dir: string }> | undefined) ?? []).map((e) => e.dir).sort();
};

beforeAll(async () => {
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: 'default' });
  api = await createApiServer(
    loadApiConfig({ PORT: '0', SKEIN_CATALOG: catalog, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', SKEIN_CATALOG_CACHE_MS: '0' }),
    { logger },
  );
  url = (await api.listen()).url;
  // Two workers of one build (the same project) writing different folders; starting them is the slow part.
  // Their own bundle and startup caches: other files start workers of the same project at the same time, and the
  // shared bundle cache's generated entry (named without the trace folder) is rewritten by a concurrent start with
  // another folder, which would give one of them another bundle (another build ID).
  const start = (traceDir: string) =>
    startWorker({
      projectDir: PROJECT_DIR,
      catalog,
      engine: { address, namespace: 'default' },
      logger,
      traceDir,
      bundleCache: path.join(base, 'bundles'),
      startupCache: path.join(base, 'startup'),
    });
  workers.push(await start(firstDir));
  workers.push(await start(secondDir));
});

afterAll(async () => {
  for (const w of workers.reverse()) await w.shutdown();
  await api?.close();
  await connection?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('trace folders of a fleet sharing one build', () => {
  it("reads each run's trace from the folder of the worker that ran it, not only the publisher's", { timeout: 120_000 }, async () => {
    const [first, second] = workers as [SkeinWorker, SkeinWorker];
    const buildId = first.catalogDocument.deployment!.buildId;
    expect(second.catalogDocument.deployment!.buildId).toBe(buildId);
    // The published document names one folder; the lease lists both.
    const published = await client.workflow.getHandle(`$catalog:${catalog}`).describe();
    expect((published.memo?.catalog as { traceDirs?: string[] }).traceDirs).toHaveLength(1);
    await expect.poll(() => leaseFolders(buildId), { timeout: 15_000, interval: 250 }).toEqual([firstDir, secondDir].sort());

    // Runs go to whichever worker polls first: run until each folder holds a trace (bounded), and read every one.
    const runs: Array<{ workflowId: string; runId: string; local: string }> = [];
    for (let i = 0; i < 30 && !(runs.some((r) => r.local.startsWith(firstDir)) && runs.some((r) => r.local.startsWith(secondDir))); i++) {
      const res = await run();
      expect(res.body.status).toBe('completed');
      runs.push({ workflowId: res.body.workflowId, runId: res.body.runId, local: res.body.trace.destinations.local });
    }
    expect(runs.some((r) => r.local.startsWith(secondDir))).toBe(true);
    expect(runs.some((r) => r.local.startsWith(firstDir))).toBe(true);
    for (const r of runs) {
      await expect.poll(() => existsSync(r.local), { timeout: 20_000, interval: 100 }).toBe(true);
      const read = await traceLog(r);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ source: 'local', location: r.local });
    }
  });

  it("a stopped worker's folder leaves the lease within its TTL, and its runs' traces are no longer read", { timeout: 120_000 }, async () => {
    const [first, second] = workers as [SkeinWorker, SkeinWorker];
    const buildId = first.catalogDocument.deployment!.buildId;
    const published = await client.workflow.getHandle(`$catalog:${catalog}`).describe();
    const publisherDir = (published.memo?.catalog as { traceDirs: string[] }).traceDirs[0];
    // Stop the worker that did not publish: the document still names the publisher's folder only.
    const leaving = publisherDir === firstDir ? second : first;
    const leftDir = leaving === first ? firstDir : secondDir;
    const res = await run();
    expect(res.body.status).toBe('completed');
    await leaving.shutdown();
    workers.splice(workers.indexOf(leaving), 1);
    // Its entry ages out of the lease as the remaining worker renews it.
    await expect.poll(() => leaseFolders(buildId), { timeout: 60_000, interval: 500 }).toEqual([publisherDir === firstDir ? firstDir : secondDir]);
    if (res.body.trace.destinations.local.startsWith(leftDir)) {
      await expect.poll(async () => (await traceLog(res.body)).status, { timeout: 15_000, interval: 250 }).toBe(404);
    }
  });
});
