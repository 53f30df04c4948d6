/**
 * Catalog liveness and versions against a real dev server: a catalog is available while a worker of its current
 * build serves it; a new build of the project (another code base that an operator declares the same project with
 * SKEIN_PROJECT) joins, becomes the current version and its workflows are the ones served, while a run pinned to the first build stays readable; workers that stop cleanly
 * retire the catalog at once.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { eventually } from './support.js';

const logger = pino({ level: 'silent' });
let address: string;
let catalog: string;
let api: ApiServer;
let url: string;
let connection: Connection;
let client: Client;
const workers: SkeinWorker[] = [];
let other: CliProcess | undefined;

const start = (project: string, extra: { promote?: 'auto' | 'manual' } = {}) =>
  startWorker({ projectDir: path.join(repoRoot, project), catalog, engine: { address }, logger, traceDir: false, ...extra });

async function get(route: string) {
  const res = await fetch(url + route);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

beforeAll(async () => {
  address = inject('temporalAddress');
  catalog = `live-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  workers.push(await start('fixtures/projects/api-suite'));
  api = await createApiServer(loadApiConfig({ TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), { logger });
  url = (await api.listen()).url;
  connection = await Connection.connect({ address });
  client = new Client({ connection });
});

afterAll(async () => {
  if (other && other.child.exitCode === null) other.child.kill('SIGKILL');
  await api?.close();
  for (const w of workers) await w.shutdown();
  await connection?.close();
});

describe('catalog liveness from the engine', () => {
  it("answers the current build's document with its version, build and the workers polling it; GET /workflow/catalog says which catalogs are live", async () => {
    const doc = await get(`/workflow/catalog/${catalog}`);
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    expect(doc.body.version).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.body.version).toBe(workers[0]!.catalogDocument.version);
    expect(doc.body.deployment).toEqual({ name: catalog, buildId: workers[0]!.deployment.buildId });
    expect(doc.body.workflows.map((w: { name: string }) => w.name)).toContain('echo');
    // The engine lists a worker once its first poll arrives; the document is served from the build's lease before that.
    const polled = await eventually(async () => {
      const again = await get(`/workflow/catalog/${catalog}`);
      return again.body.workers?.length > 0 ? again.body : undefined;
    });
    expect(polled.workers[0]).toMatchObject({ identity: expect.any(String), lastPollAt: expect.any(Number) });
    const all = await get('/workflow/catalog');
    expect(all.status).toBe(200);
    expect(all.body.catalogs).toContainEqual({ catalog, live: true, version: doc.body.version });
    // The build's lease and catalog record exist on the engine, but run listings leave them out.
    const lease = await client.workflow.getHandle(`$lease:${catalog}@${doc.body.deployment.buildId}`).describe();
    expect(lease.status.name).toBe('RUNNING');
    const listed = await get('/workflow/runs?limit=1000');
    expect(listed.status).toBe(200);
    expect(listed.body.runs.filter((r: { workflowType: string }) => r.workflowType.startsWith('$'))).toEqual([]);
  });

  it('a new build of the project (other code, declared the same project by SKEIN_PROJECT) joins, becomes current, and its workflows are served; a run pinned to the first build stays readable', async () => {
    // A run of the first build that waits (pinned to that build).
    const started = await fetch(`${url}/workflow/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'waiter', input: {} }),
    });
    expect(started.status).toBe(200);
    const { workflowId } = (await started.json()) as { workflowId: string };

    other = spawnSkein(['worker', 'fixtures/projects/catalog-other'], { TEMPORAL_ADDRESS: address, SKEIN_CATALOG: catalog, SKEIN_PROJECT: 'api-suite' });
    const next = await eventually(async () => {
      const r = await get(`/workflow/catalog/${catalog}`);
      return r.status === 200 && r.body.version !== workers[0]!.catalogDocument.version ? r : undefined;
    }, 60_000);
    const names = next.body.workflows.map((w: { name: string }) => w.name);
    expect(names).toContain('shout');
    expect(names).not.toContain('echo');
    expect(next.body.deployment.buildId).not.toBe(workers[0]!.deployment.buildId);
    // The engine agrees: the new build is current, the first one draining its pinned run.
    const described = await client.workflowService.describeWorkerDeployment({ namespace: 'default', deploymentName: catalog });
    expect(described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId).toBe(next.body.deployment.buildId);

    const shout = await fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'shout', input: 'hi', timeout: 30_000 }),
    });
    expect(shout.status).toBe(200);
    // The pinned run of the first build is still there and readable.
    const status = await get(`/workflow/${encodeURIComponent(workflowId)}/status`);
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('running');
  });

  it('workers stopped cleanly retire the catalog: a run on it is 404 CatalogNotAvailableError at once, with Retry-After', async () => {
    other!.child.kill('SIGTERM');
    expect(await other!.exited).toBe(0);
    await workers[0]!.shutdown();
    const started = Date.now();
    const res = await eventually(
      async () => {
        const r = await fetch(`${url}/workflow/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ workflowName: 'shout', input: 1, timeout: 1000 }),
        });
        return r.status === 404 ? r : undefined;
      },
      5_000,
      50,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toMatchObject({ error: 'CatalogNotAvailableError' });
    const description = await client.workflow.getHandle(`$catalog:${catalog}`).describe();
    expect(description.status.name).toBe('TERMINATED');
    expect((await get(`/workflow/catalog/${catalog}`)).status).toBe(404);
    const all = await get('/workflow/catalog');
    expect(all.status).toBe(404);
    expect(all.body.message).toMatch(/live catalogs: /);
  });

  it('a worker that starts right after a refusal is served by the next request: a refusal is not cached', async () => {
    const fresh = `${catalog}-fresh`;
    const run = (text: string, timeout: number) =>
      fetch(`${url}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'echo', catalog: fresh, input: { text }, timeout }),
      });
    expect((await run('x', 1000)).status).toBe(404);
    workers.push(
      await startWorker({ projectDir: path.join(repoRoot, 'fixtures/projects/api-suite'), catalog: fresh, engine: { address }, logger, traceDir: false }),
    );
    const res = await run('again', 20_000);
    expect(res.status, await res.clone().text()).toBe(200);
  });
});
