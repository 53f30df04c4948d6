/**
 * Catalog liveness and versioning against a real dev server (issue 12, Build 1): a catalog is available while a
 * worker polls it; a second worker with a different project refuses the catalog unless it is a rolling deploy
 * (then both projects' workflows are served); workers that stop cleanly retire the catalog at once.
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
let rolling: CliProcess | undefined;

const start = (project: string, extra: { rollingDeploy?: boolean } = {}) =>
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
  if (rolling && rolling.child.exitCode === null) rolling.child.kill('SIGKILL');
  await api?.close();
  for (const w of workers) await w.shutdown();
  await connection?.close();
});

describe('catalog liveness from the engine', () => {
  it('answers the served document with its version and the workers polling it; GET /workflow/catalog says which catalogs are live', async () => {
    const doc = await get(`/workflow/catalog/${catalog}`);
    expect(doc.status).toBe(200);
    expect(doc.body.version).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.body.version).toBe(workers[0]!.catalogDocument.version);
    expect(doc.body.workflows.map((w: { name: string }) => w.name)).toContain('echo');
    expect(doc.body.workers.length).toBeGreaterThan(0);
    const all = await get('/workflow/catalog');
    expect(all.status).toBe(200);
    expect(all.body.catalogs).toContainEqual({ catalog, live: true, version: doc.body.version });
  });

  it('a second worker with a different project refuses the catalog unless it is a rolling deploy, which serves both', async () => {
    await expect(start('fixtures/projects/catalog-other')).rejects.toThrow(
      new RegExp(`Catalog "${catalog}" is served by another live worker .*--rolling-deploy \\(SKEIN_ROLLING_DEPLOY=1\\)`),
    );
    // The refused worker changed nothing: the first project is still served alone.
    const still = await get(`/workflow/catalog/${catalog}`);
    expect(still.body.version).toBe(workers[0]!.catalogDocument.version);
    expect(still.body.workflows.map((w: { name: string }) => w.name)).not.toContain('shout');

    // The deliberate rolling deploy, as an operator starts it: `skein worker --rolling-deploy`.
    rolling = spawnSkein(['worker', 'fixtures/projects/catalog-other', '--rolling-deploy'], {
      TEMPORAL_ADDRESS: address,
      SKEIN_CATALOG: catalog,
    });
    const both = await eventually(async () => {
      const r = await get(`/workflow/catalog/${catalog}`);
      return r.status === 200 && r.body.version !== workers[0]!.catalogDocument.version ? r : undefined;
    }, 60_000);
    const names = both.body.workflows.map((w: { name: string }) => w.name);
    expect(names).toEqual(expect.arrayContaining(['shout', 'echo']));
  });

  it('workers stopped cleanly retire the catalog: a run on it is 404 CatalogNotAvailableError at once, with Retry-After', async () => {
    rolling!.child.kill('SIGTERM');
    expect(await rolling!.exited).toBe(0);
    // The other worker still serves the catalog.
    expect((await get(`/workflow/catalog/${catalog}`)).status).toBe(200);
    await workers[0]!.shutdown();
    const started = Date.now();
    const res = await eventually(async () => {
      const r = await fetch(`${url}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'echo', input: 1, timeout: 1000 }),
      });
      return r.status === 404 ? r : undefined;
    }, 5_000, 50);
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
});
