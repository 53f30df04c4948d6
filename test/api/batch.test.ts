/**
 * Batch operations against a real Temporal dev server: terminate and cancel by query over 20 running runs, signal
 * by ids, reset, the dry run's count, progress to `completed` with the right counts, the restriction of a query
 * to the catalog, and each bad input. The harness's catalog is this file's own, so the queries count only its runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

/** Starts `n` `waiter` runs tagged `tag` in their ids; resolves with their ids. */
async function startWaiters(tag: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
  for (const workflowId of ids) {
    const res = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter', workflowId, input: { value: workflowId } } });
    expect(res.status).toBe(200);
  }
  return ids;
}

/** The dry-run count of `query` (polled: visibility lags the starts by a little). */
async function dryRun(body: Record<string, unknown>): Promise<number> {
  const res = await h.call('POST', '/workflow/batch', { body: { ...body, dryRun: true } });
  expect(res.status).toBe(200);
  return res.body.matched as number;
}

/** Waits until batch `batchId` is no longer running and answers its progress. */
async function settled(batchId: string): Promise<any> {
  let last: any;
  await expect
    .poll(
      async () => {
        const res = await h.call('GET', '/workflow/batch/{batchId}', { params: { batchId } });
        expect(res.status).toBe(200);
        last = res.body;
        return last.state;
      },
      { timeout: 60_000, interval: 250 },
    )
    .not.toBe('running');
  return last;
}

async function statuses(ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await h.call('GET', '/workflow/{id}/status', { params: { id } })).body.status as string));
}

const running = (tag: string) => `WorkflowType = 'waiter' AND ExecutionStatus = 'Running' AND WorkflowId STARTS_WITH '${tag}-'`;

describe('batch operations', () => {
  it('terminates every run a query matches: the dry run counts first and changes nothing, progress reaches completed', async () => {
    const ids = await startWaiters('term', 20);
    const query = running('term');
    await expect.poll(() => dryRun({ operation: 'terminate', query }), { timeout: 20_000, interval: 200 }).toBe(20);
    // The same query lists exactly what the batch reaches.
    const listed = await h.call('GET', '/workflow/runs', { query: { catalog: h.catalog, query, limit: 100 } });
    expect(listed.status).toBe(200);
    expect(listed.body.runs.map((r: { workflowId: string }) => r.workflowId).sort()).toEqual([...ids].sort());
    expect(new Set(await statuses(ids))).toEqual(new Set(['running']));

    const started = await h.call('POST', '/workflow/batch', { body: { operation: 'terminate', query, reason: 'batch test' } });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ batchId: expect.any(String), matched: 20 });
    const done = await settled(started.body.batchId);
    expect(done).toMatchObject({
      batchId: started.body.batchId,
      operation: 'terminate',
      state: 'completed',
      total: 20,
      completed: 20,
      failed: 0,
      reason: 'batch test',
    });
    expect(Date.parse(done.closedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    expect(new Set(await statuses(ids))).toEqual(new Set(['terminated']));

    const list = await h.call('GET', '/workflow/batch', { query: { pageSize: 50 } });
    expect(list.status).toBe(200);
    expect(list.body.batches.map((b: { batchId: string }) => b.batchId)).toContain(started.body.batchId);
  });

  it('cancels every run a query matches', async () => {
    const ids = await startWaiters('cancel', 20);
    const query = running('cancel');
    await expect.poll(() => dryRun({ operation: 'cancel', query }), { timeout: 20_000, interval: 200 }).toBe(20);
    const started = await h.call('POST', '/workflow/batch', { body: { operation: 'cancel', query } });
    expect(started.status).toBe(202);
    expect(started.body.matched).toBe(20);
    expect(await settled(started.body.batchId)).toMatchObject({ operation: 'cancel', state: 'completed', total: 20, completed: 20, failed: 0 });
    await expect.poll(async () => new Set(await statuses(ids)), { timeout: 20_000, interval: 250 }).toEqual(new Set(['canceled']));
  });

  it('signals the latest run of each named execution', async () => {
    const ids = await startWaiters('signal', 3);
    expect(await dryRun({ operation: 'signal', workflowIds: [...ids, ids[0]], signal: { name: 'finish' } })).toBe(3);
    const started = await h.call('POST', '/workflow/batch', {
      body: { operation: 'signal', workflowIds: ids, signal: { name: 'finish', payload: { by: 'batch' } } },
    });
    expect(started.status).toBe(202);
    expect(started.body.matched).toBe(3);
    expect(await settled(started.body.batchId)).toMatchObject({ operation: 'signal', state: 'completed', total: 3, completed: 3, failed: 0 });
    for (const id of ids) {
      await expect
        .poll(async () => (await h.call('GET', '/workflow/{id}/result', { params: { id } })).body.output, { timeout: 20_000, interval: 250 })
        .toEqual({ value: id, pings: 0, finish: { by: 'batch' } });
    }
  });

  it('resets runs to their first workflow task: each gets a new run', async () => {
    const [id] = await startWaiters('reset', 1);
    const before = (await h.call('GET', '/workflow/{id}/status', { params: { id: id! } })).body.runId;
    await expect
      .poll(async () => (await h.call('GET', '/workflow/{id}/history', { params: { id: id! } })).body.events.length, { timeout: 20_000 })
      .toBeGreaterThan(3);
    const started = await h.call('POST', '/workflow/batch', { body: { operation: 'reset', workflowIds: [id], reset: { type: 'first-workflow-task' } } });
    expect(started.status).toBe(202);
    expect(await settled(started.body.batchId)).toMatchObject({ operation: 'reset', state: 'completed', total: 1, completed: 1, failed: 0 });
    const after = await h.call('GET', '/workflow/{id}/status', { params: { id: id! } });
    expect(after.body).toMatchObject({ status: 'running' });
    expect(after.body.runId).not.toBe(before);
  });

  it('a query reaches only runs of its catalog', async () => {
    const [id] = await startWaiters('scope', 1);
    await expect.poll(() => dryRun({ operation: 'terminate', query: running('scope') }), { timeout: 20_000, interval: 200 }).toBe(1);
    expect(await dryRun({ operation: 'terminate', query: running('scope'), catalog: `${h.catalog}-other` })).toBe(0);
    // Skein's own record of the catalog ($catalog:<catalog>) is running, but no batch reaches it.
    expect(await dryRun({ operation: 'terminate', query: "WorkflowId STARTS_WITH '$'" })).toBe(0);
    expect(await dryRun({ operation: 'terminate', query: "WorkflowType = '$catalog'" })).toBe(0);
    await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: id!, signal: 'finish' }, body: { payload: {} } });
  });
});

describe('batch bad input', () => {
  async function refused(body: unknown, path: (string | number)[]) {
    const res = await h.call('POST', '/workflow/batch', { body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe('ValidationError');
    expect(res.body.issues.map((i: { path: (string | number)[] }) => i.path)).toContainEqual(path);
    return res.body;
  }

  it('needs exactly one of query and workflowIds, and signal.name for a signal', async () => {
    await refused({ operation: 'terminate' }, ['body', 'query']);
    await refused({ operation: 'terminate', query: "WorkflowType = 'x'", workflowIds: ['a'] }, ['body', 'workflowIds']);
    await refused({ operation: 'signal', workflowIds: ['a'] }, ['body', 'signal', 'name']);
    await refused({ operation: 'signal', workflowIds: ['a'], signal: {} }, ['body', 'signal', 'name']);
    // Temporal's built-in handlers, refused as on POST /workflow/{id}/signal/{signal}.
    await refused({ operation: 'signal', workflowIds: ['a'], signal: { name: '__temporal_workflow_metadata' } }, ['body', 'signal', 'name']);
    await refused({ operation: 'pause', workflowIds: ['a'] }, ['body', 'operation']);
    await refused({ operation: 'terminate', workflowIds: [] }, ['body', 'workflowIds']);
    await refused({ operation: 'terminate', workflowIds: ['$catalog:main'] }, ['body', 'workflowIds', 0]);
  });

  it("passes the engine's reason for a query it refuses on, sanitized, and refuses a query that could escape the catalog", async () => {
    const unknown = await refused({ operation: 'terminate', query: 'NoSuchAttribute = 1', dryRun: true }, ['body', 'query']);
    expect(unknown.message).toMatch(/^Invalid query: .*NoSuchAttribute/);
    expect(unknown.message).not.toMatch(/[\n\r\t]/);
    const syntax = await refused({ operation: 'terminate', query: "WorkflowType = = 'x'" }, ['body', 'query']);
    expect(syntax.message).toMatch(/^Invalid query: /);
    const escape = await refused({ operation: 'terminate', query: "WorkflowType = 'x') OR (WorkflowType != 'x'" }, ['body', 'query']);
    expect(escape.message).toMatch(/closes a parenthesis the query did not open/);
    await refused({ operation: 'terminate', query: "WorkflowType = 'x' -- ) OR (" }, ['body', 'query']);
    await refused({ operation: 'terminate', query: 'ExecutionStatus = "Running"', catalog: 'skein-records' }, ['body', 'catalog']);
    const runs = await h.call('GET', '/workflow/runs', { query: { query: 'NoSuchAttribute = 1' } });
    expect(runs.status).toBe(400);
    expect(runs.body.issues[0].path).toEqual(['query', 'query']);
    expect(runs.body.message).toMatch(/NoSuchAttribute/);
  });

  it('a page token the engine cannot read is a 400', async () => {
    const res = await h.call('GET', '/workflow/batch', { query: { pageToken: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toEqual(['query', 'pageToken']);
  });

  it('an unknown batch is a 404', async () => {
    const res = await h.call('GET', '/workflow/batch/{batchId}', { params: { batchId: 'no-such-batch' } });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'BatchNotFoundError' });
  });
});
