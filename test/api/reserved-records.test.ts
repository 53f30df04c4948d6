/**
 * Skein's own records (a catalog's published document `$catalog:<catalog>`, a build's catalog record
 * `$catalog:<catalog>@<buildId>` and its liveness lease `$lease:<catalog>@<buildId>`) are out of the API's reach,
 * against a real dev server: every `{id}` route and `workflowId` of start/run refuse ids starting with `$` and ids
 * holding control characters (400 `ValidationError`, as /openapi.json documents), catalog names refuse `@`; the API
 * counts a lease or a document only from executions of the record's own type; and a record closed from outside
 * (by a client of the namespace) is restored by the serving worker within seconds.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './support.js';

let h: Harness;
/** Executions this file started directly on the engine, terminated at the end. */
const forged: string[] = [];

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await Promise.all(
    forged.map((id) =>
      h?.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => {}),
    ),
  );
  await h?.close();
});

const runEcho = (extra: Record<string, unknown> = {}) =>
  h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { text: 'still served' }, timeout: 30_000, ...extra } });

/** The run id of the running execution `id`, or undefined when none runs. */
async function runningRunId(id: string): Promise<string | undefined> {
  const d = await h.client.workflow
    .getHandle(id)
    .describe()
    .catch(() => undefined);
  return d?.status.name === 'RUNNING' ? d.runId : undefined;
}

describe('reserved ids', () => {
  it('refuses every {id} route naming a record, and start/run with such a workflowId, with 400 ValidationError; the records keep running', async () => {
    const { buildId } = h.worker.deployment;
    const ids = [`$catalog:${h.catalog}`, `$catalog:${h.catalog}@${buildId}`, `$lease:${h.catalog}@${buildId}`, '$anything'];
    const rid = '0199a6b2-6d4c-7c3e-9f5a-1b2c3d4e5f60';
    for (const id of ids) {
      const calls = [
        h.call('POST', '/workflow/{id}/terminate', { params: { id }, body: {} }),
        h.call('GET', '/workflow/{id}/status', { params: { id } }),
        h.call('POST', '/workflow/{id}/query/{query}', { params: { id, query: 'catalog' }, body: {} }),
        h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id, signal: 'workerStopped' }, body: { payload: 'x' } }),
        h.call('GET', '/workflow/{id}/history', { params: { id } }),
        h.call('GET', '/workflow/{id}/result', { params: { id } }),
        h.call('GET', '/workflow/{id}/input', { params: { id } }),
        h.call('POST', '/workflow/{id}/reset', { params: { id }, body: { stepName: 'x' } }),
        h.call('GET', '/workflow/{id}/runs/{rid}/status', { params: { id, rid } }),
        h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id, rid }, body: {} }),
        h.call('POST', '/workflow/start', { body: { workflowName: 'echo', input: { text: 'x' }, workflowId: id } }),
        h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { text: 'x' }, workflowId: id, timeout: 1000 } }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status, `${id}: ${res.text}`).toBe(400);
        expect(res.body.error).toBe('ValidationError');
        expect(JSON.stringify(res.body.issues)).toMatch(/reserved for Skein's own records/);
      }
    }
    // Nothing reached the engine: the catalog and the build's records still run, and the catalog serves runs.
    expect(await runningRunId(`$catalog:${h.catalog}`)).toBeDefined();
    expect(await runningRunId(`$catalog:${h.catalog}@${buildId}`)).toBeDefined();
    expect(await runningRunId(`$lease:${h.catalog}@${buildId}`)).toBeDefined();
    const run = await runEcho();
    expect(run.status, run.text).toBe(200);
  });

  it('refuses ids holding ESC, another C0 control character or DEL with 400; other Unicode is an id like any', async () => {
    for (const id of ['order\u001b[31m-red', 'line\nforged log line', 'tab\there', 'del\u007f', '\u0000']) {
      const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'echo', input: { text: 'x' }, workflowId: id } });
      expect(start.status, start.text).toBe(400);
      expect(start.body.error).toBe('ValidationError');
      expect(JSON.stringify(start.body.issues)).toMatch(/control characters/);
      const status = await h.call('GET', '/workflow/{id}/status', { params: { id } });
      expect(status.status, status.text).toBe(400);
      const terminate = await h.call('POST', '/workflow/{id}/terminate', { params: { id }, body: {} });
      expect(terminate.status, terminate.text).toBe(400);
    }
    const fine = `ordre-été-${Date.now()}-a$b`;
    const run = await runEcho({ workflowId: fine });
    expect(run.status, run.text).toBe(200);
    expect(run.body.workflowId).toBe(fine);
  });

  it('refuses "@" in a catalog name: it would name another record', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'echo', input: {}, catalog: `${h.catalog}@x` } });
    expect(start.status, start.text).toBe(400);
    expect(start.body.issues[0].message).toMatch(/Must not contain "@"/);
    const catalog = await h.call('GET', '/workflow/catalog/{catalog}', { params: { catalog: `${h.catalog}@${h.worker.deployment.buildId}` } });
    expect(catalog.status, catalog.text).toBe(400);
  });
});

describe('records closed from outside', () => {
  it('the serving worker publishes the catalog again within 10 s after a client of the namespace terminates it, and runs are served', async () => {
    const id = `$catalog:${h.catalog}`;
    const before = await runningRunId(id);
    expect(before).toBeDefined();
    const closedAt = Date.now();
    await h.client.workflow.getHandle(id).terminate('an attack from a namespace client');
    await vi.waitFor(
      async () => {
        const now = await runningRunId(id);
        expect(now).toBeDefined();
        expect(now).not.toBe(before);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(Date.now() - closedAt).toBeLessThan(10_000);
    const run = await vi.waitFor(
      async () => {
        const r = await runEcho();
        expect(r.status, r.text).toBe(200);
        return r;
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(run.body.output).toEqual({ text: 'still served' });
  });

  it("the build's catalog record comes back within 10 s too, so that a promotion can still publish it", async () => {
    const id = `$catalog:${h.catalog}@${h.worker.deployment.buildId}`;
    const before = await runningRunId(id);
    expect(before).toBeDefined();
    await h.client.workflow.getHandle(id).terminate('an attack from a namespace client');
    await vi.waitFor(
      async () => {
        const now = await runningRunId(id);
        expect(now).toBeDefined();
        expect(now).not.toBe(before);
      },
      { timeout: 10_000, interval: 100 },
    );
    const d = await h.client.workflow.getHandle(id).describe();
    expect((d.memo?.catalog as { deployment?: { buildId?: string } }).deployment?.buildId).toBe(h.worker.deployment.buildId);
  });
});

describe('forged records', () => {
  /** A catalog no worker serves, with a document and a lease started directly on the engine. */
  const catalog = `forged-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const doc = {
    catalog,
    publishedAt: Date.now(),
    version: 'f'.repeat(64),
    identity: 'forger',
    deployment: { name: catalog, buildId: 'b1' },
    workflows: [{ name: 'echo', aliases: [], description: null, inputSchema: null, outputSchema: null, activities: [] }],
    sharedActivities: [],
  };
  const startRecord = async (type: string, workflowId: string, taskQueue: string, memo?: Record<string, unknown>) => {
    forged.push(workflowId);
    await h.client.workflow.start(type, {
      workflowId,
      taskQueue,
      args: [],
      workflowExecutionTimeout: 120_000,
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
      ...(memo ? { memo } : {}),
    });
  };
  const served = async () => (await h.call('GET', '/workflow/catalog/{catalog}', { params: { catalog } })).status;

  it('counts a lease only from a $lease execution on skein-records', async () => {
    await startRecord('$catalog', `$catalog:${catalog}`, catalog, { catalog: doc });
    await startRecord('squatter', `$lease:${catalog}@b1`, 'skein-records');
    expect(await served()).toBe(404);
    await startRecord('$lease', `$lease:${catalog}@b1`, 'elsewhere');
    expect(await served()).toBe(404);
    // The same id as the lease's own type on the records task queue: the catalog counts as served (the control).
    await startRecord('$lease', `$lease:${catalog}@b1`, 'skein-records');
    expect(await served()).toBe(200);
  });

  it('takes a catalog document only from a $catalog execution on the catalog’s own task queue that names the catalog', async () => {
    await startRecord('forged', `$catalog:${catalog}`, catalog, { catalog: doc });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toBe(404);
    await startRecord('$catalog', `$catalog:${catalog}`, 'skein-records', { catalog: doc });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toBe(404);
    await startRecord('$catalog', `$catalog:${catalog}`, catalog, { catalog: { ...doc, catalog: h.catalog } });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toBe(404);
    await startRecord('$catalog', `$catalog:${catalog}`, catalog, { catalog: doc });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toBe(200);
  });

  it("takes a head's workflows only from its build's record: a $catalogVersion on skein-records naming the same catalog, build and version", async () => {
    // A head as workers publish it (no workflows), version v1 of build b2; the lease makes the build live.
    const { workflows: _workflows, sharedActivities: _shared, ...rest } = doc;
    const head = { ...rest, version: '1'.repeat(64), deployment: { name: catalog, buildId: 'b2' } };
    const record = { ...doc, version: head.version, deployment: head.deployment };
    await startRecord('$lease', `$lease:${catalog}@b2`, 'skein-records');
    await startRecord('$catalog', `$catalog:${catalog}`, catalog, { catalog: head });
    await expect.poll(served, { timeout: 10_000, interval: 100 }).toBe(404);
    const forgeries: Array<[string, string, unknown]> = [
      ['squatter', 'skein-records', record],
      ['$catalogVersion', 'elsewhere', record],
      ['$catalogVersion', 'skein-records', { ...record, catalog: h.catalog }],
      ['$catalogVersion', 'skein-records', { ...record, deployment: { name: catalog, buildId: 'b1' } }],
      ['$catalogVersion', 'skein-records', { ...record, version: '2'.repeat(64) }],
    ];
    for (const [type, taskQueue, memo] of forgeries) {
      await startRecord(type, `$catalog:${catalog}@b2`, taskQueue, { catalog: memo });
      expect(await served(), `${type} on ${taskQueue}: ${JSON.stringify(memo).slice(0, 200)}`).toBe(404);
    }
    // The control: the build's own record.
    await startRecord('$catalogVersion', `$catalog:${catalog}@b2`, 'skein-records', { catalog: record });
    const found = await h.call('GET', '/workflow/catalog/{catalog}', { params: { catalog } });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({ version: head.version, deployment: { buildId: 'b2' }, workflows: [expect.objectContaining({ name: 'echo' })] });
  });
});
