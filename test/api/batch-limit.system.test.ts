/**
 * The engine's limit on concurrent batch operations, on a Temporal dev server of this file's own (system tier: it
 * starts its own server) configured as production namespaces default (one batch at a time,
 * `frontend.MaxConcurrentBatchOperationPerNamespace=1`): a second batch while one runs is a 429 with `Retry-After`,
 * and goes through once the first finished (the engine counts running batches through its visibility store, so
 * the test waits until the first one is listed). No worker is needed: the runs wait on a task queue nobody polls, and a
 * signal reaches them all the same. The engine's batcher is slowed to 25 operations a second
 * (`worker.batcherRPS`, 50 by default), so the first batch of 150 signals runs for about 6 s: at the default rate it
 * could finish between the listing that shows it running and the second request, on a loaded machine.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';

let server: DevServer;
let api: ApiServer;
let url: string;
let connection: Connection;

beforeAll(async () => {
  const temporal = await locateTemporal({ install: false });
  server = await startDevServer({
    binary: temporal.path,
    onOutput: () => {},
    dynamicConfig: { 'frontend.MaxConcurrentBatchOperationPerNamespace': '1', 'worker.batcherRPS': '25' },
  });
  api = await createApiServer(loadApiConfig({ PORT: '0', TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: 'default' }), {
    logger: pino({ level: 'silent' }),
  });
  url = (await api.listen()).url;
  connection = await Connection.connect({ address: server.address });
});

afterAll(async () => {
  await api?.close();
  await connection?.close();
  await server?.stop();
});

async function batch(body: unknown): Promise<{ status: number; retryAfter: string | null; body: any }> {
  const res = await fetch(`${url}/workflow/batch`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

describe('concurrent batch operations', () => {
  it('a second batch while one runs is a 429 with Retry-After; it goes through once the first finished', async () => {
    const client = new Client({ connection, namespace: 'default' });
    const ids = Array.from({ length: 150 }, (_, i) => `limit-${i}-${randomUUID().slice(0, 6)}`);
    for (const workflowId of ids) await client.workflow.start('unpolled', { taskQueue: 'nobody-polls', workflowId, args: [] });
    const body = { operation: 'signal', workflowIds: ids, signal: { name: 'ping' } };
    const first = await batch(body);
    expect(first.status).toBe(202);
    // The engine counts running batches through its visibility store, which shows a new one a moment later.
    const listed = async () => ((await (await fetch(`${url}/workflow/batch`)).json()) as { batches: { batchId: string; state: string }[] }).batches;
    await expect.poll(async () => (await listed()).find((b) => b.batchId === first.body.batchId)?.state, { timeout: 10_000, interval: 100 }).toBe('running');
    const second = await batch(body);
    expect([second.status, second.retryAfter, second.body.error]).toEqual([429, '5', 'TooManyBatchOperationsError']);
    const progress = async () => (await (await fetch(`${url}/workflow/batch/${first.body.batchId}`)).json()) as { state: string; completed: number };
    await expect.poll(async () => (await progress()).state, { timeout: 60_000, interval: 250 }).toBe('completed');
    expect((await progress()).completed).toBe(150);
    await expect.poll(async () => (await batch({ operation: 'terminate', workflowIds: ids })).status, { timeout: 30_000, interval: 500 }).toBe(202);
  });
});
