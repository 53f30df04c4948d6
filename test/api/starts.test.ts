/**
 * Starts that are safe to repeat, against a real Temporal dev server: `onConflict`, `onClosed`, the
 * `Idempotency-Key` header (the same execution on a repeat, also after it closed), `startDelay` (the status says
 * so; a signal does not start the run early), and their bad input.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const uid = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

async function start(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return h.call('POST', '/workflow/start', { body, headers });
}

async function status(id: string) {
  return (await h.call('GET', '/workflow/{id}/status', { params: { id } })).body;
}

async function finish(id: string) {
  const res = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id, signal: 'finish' }, body: { payload: {} } });
  expect(res.status).toBe(202);
  await expect.poll(async () => (await status(id)).status, { timeout: 20_000, interval: 200 }).toBe('completed');
}

describe('onConflict', () => {
  it('fail (the default) answers 409, use-existing the running ids, terminate-existing a new run', async () => {
    const workflowId = uid('conflict');
    const first = await start({ workflowName: 'waiter', workflowId });
    expect(first.status).toBe(200);
    const again = await start({ workflowName: 'waiter', workflowId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'WorkflowExecutionAlreadyStartedError', workflowId });
    const existing = await start({ workflowName: 'waiter', workflowId, onConflict: 'use-existing', input: { value: 'other' } });
    expect(existing.status).toBe(200);
    expect(existing.body).toEqual(first.body);
    const replaced = await start({ workflowName: 'waiter', workflowId, onConflict: 'terminate-existing' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.runId).not.toBe(first.body.runId);
    const old = await h.call('GET', '/workflow/{id}/runs/{rid}/status', { params: { id: workflowId, rid: first.body.runId } });
    expect(old.body.status).toBe('terminated');
    await finish(workflowId);
  });

  it('/run with use-existing waits on the running run and answers its own input and output', async () => {
    const workflowId = uid('run-existing');
    const first = await start({ workflowName: 'waiter', workflowId, input: { value: 'original' } });
    const run = h.call('POST', '/workflow/run', {
      body: { workflowName: 'waiter', workflowId, onConflict: 'use-existing', input: { value: 'ignored' }, timeout: 30_000 },
    });
    await expect
      .poll(async () => (await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId } })).body.events.length, { timeout: 20_000 })
      .toBeGreaterThan(3);
    await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'finish' }, body: { payload: { by: 'test' } } });
    const res = await run;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      workflowId,
      runId: first.body.runId,
      status: 'completed',
      input: { value: 'original' },
      output: { value: 'original', pings: 0, finish: { by: 'test' } },
    });
  });
});

describe('onClosed', () => {
  it('allow reuses a closed id, reject answers 409, allow-failed-only only after a run that did not complete', async () => {
    const workflowId = uid('closed');
    const first = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', workflowId, input: 1 } });
    expect(first.body.status).toBe('completed');
    const rejected = await start({ workflowName: 'echo', workflowId, onClosed: 'reject' });
    expect(rejected.status).toBe(409);
    expect(rejected.body.message).toMatch(/onClosed: reject/);
    expect((await start({ workflowName: 'echo', workflowId, onClosed: 'allow-failed-only' })).status).toBe(409);
    const reused = await start({ workflowName: 'echo', workflowId, onClosed: 'allow' });
    expect(reused.status).toBe(200);
    expect(reused.body.runId).not.toBe(first.body.runId);

    const failedId = uid('closed-failed');
    const waiting = await start({ workflowName: 'waiter', workflowId: failedId });
    await h.call('POST', '/workflow/{id}/runs/{rid}/terminate', { params: { id: failedId, rid: waiting.body.runId }, body: {} });
    const retried = await start({ workflowName: 'waiter', workflowId: failedId, onClosed: 'allow-failed-only' });
    expect(retried.status).toBe(200);
    expect(retried.body.runId).not.toBe(waiting.body.runId);
    await finish(failedId);
  });
});

describe('Idempotency-Key', () => {
  it('a repeat answers the same execution, while it runs and after it closed', async () => {
    const key = uid('key');
    const headers = { 'Idempotency-Key': key };
    const first = await start({ workflowName: 'waiter', input: { value: 'k' } }, headers);
    expect(first.status).toBe(200);
    expect(first.body.workflowId).toMatch(/^idem-waiter-[0-9a-f]{32}$/);
    const repeat = await start({ workflowName: 'waiter', input: { value: 'k' } }, headers);
    expect([repeat.status, repeat.body]).toEqual([200, first.body]);
    await finish(first.body.workflowId);
    const afterClose = await start({ workflowName: 'waiter', input: { value: 'k' } }, headers);
    expect([afterClose.status, afterClose.body]).toEqual([200, first.body]);
    // /run with the same key answers the closed run's outcome at once.
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'waiter', input: { value: 'k' } }, headers });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ ...first.body, status: 'completed', input: { value: 'k' }, output: { value: 'k', pings: 0, finish: {} } });
    // Another key, or another workflow name, is another execution.
    const other = await start({ workflowName: 'waiter', input: { value: 'k' } }, { 'Idempotency-Key': `${key}-2` });
    expect(other.body.workflowId).not.toBe(first.body.workflowId);
    await finish(other.body.workflowId);
  });

  it('with a workflowId, a key keeps that id and answers its execution on a repeat', async () => {
    const workflowId = uid('keyed-id');
    const headers = { 'Idempotency-Key': uid('k') };
    const first = await start({ workflowName: 'echo', workflowId, input: 1 }, headers);
    expect([first.status, first.body.workflowId]).toEqual([200, workflowId]);
    await expect.poll(async () => (await status(workflowId)).status, { timeout: 20_000, interval: 200 }).toBe('completed');
    const repeat = await start({ workflowName: 'echo', workflowId, input: 1 }, headers);
    expect([repeat.status, repeat.body]).toEqual([200, first.body]);
  });

  it('a /run repeated with a key waits on the same run', async () => {
    const headers = { 'Idempotency-Key': uid('run-key') };
    const [a, b] = await Promise.all([
      h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { n: 1 } }, headers }),
      h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { n: 1 } }, headers }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toMatchObject({ workflowId: a.body.workflowId, runId: a.body.runId, status: 'completed', output: { n: 1 } });
  });

  it('a /run of a workflow that continues as new, repeated with a key once its chain has closed, answers as the first did', async () => {
    const headers = { 'Idempotency-Key': uid('chain-key') };
    const first = await h.call('POST', '/workflow/run', { body: { workflowName: 'looper', input: { seed: 7 } }, headers });
    expect(first.body).toMatchObject({ status: 'completed', input: { seed: 7 }, output: { seed: 7, iteration: 1 } });
    // The repeat finds the closed execution by its latest run; it still answers the chain's first run and input.
    const repeat = await h.call('POST', '/workflow/run', { body: { workflowName: 'looper', input: { seed: 7 } }, headers });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first.body);
  });

  it('refuses a key over 200 bytes, a key with control characters, and contradicting policies', async () => {
    const long = await start({ workflowName: 'echo' }, { 'Idempotency-Key': 'k'.repeat(201) });
    expect(long.status).toBe(400);
    expect(long.body.issues).toEqual([expect.objectContaining({ path: ['headers', 'idempotency-key'], message: 'Must be at most 200 bytes' })]);
    expect((await start({ workflowName: 'echo' }, { 'Idempotency-Key': 'k'.repeat(200) })).status).toBe(200);
    const control = await start({ workflowName: 'echo' }, { 'Idempotency-Key': 'a\tb' });
    expect(control.status).toBe(400);
    expect(control.body.issues[0]).toMatchObject({ path: ['headers', 'idempotency-key'], message: 'Must not contain control characters' });
    const contradicting = await start({ workflowName: 'echo', onConflict: 'fail' }, { 'Idempotency-Key': uid('k') });
    expect(contradicting.status).toBe(400);
    expect(contradicting.body.issues[0].path).toEqual(['body', 'onConflict']);
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo' }, headers: { 'Idempotency-Key': 'x'.repeat(300) } });
    expect(run.status).toBe(400);
  });
});

describe('startDelay', () => {
  it('delays the first workflow task; the status says until when; a signal does not start the run early', async () => {
    const workflowId = uid('delayed');
    const before = Date.now();
    const started = await start({ workflowName: 'waiter', workflowId, input: { value: 'late' }, startDelay: '4s' });
    expect(started.status).toBe(200);
    const during = await status(workflowId);
    expect(during).toMatchObject({ workflowId, runId: started.body.runId, status: 'running', completedAt: null });
    expect(during.delayedUntil).toBeGreaterThanOrEqual(before + 3_000);
    expect(during.delayedUntil).toBeLessThanOrEqual(Date.now() + 4_500);

    const signal = await h.call('POST', '/workflow/{id}/signal/{signal}', { params: { id: workflowId, signal: 'finish' }, body: { payload: { early: true } } });
    expect(signal.status).toBe(202);
    const history = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId } });
    const types = history.body.events.map((e: { eventTypeName: string }) => e.eventTypeName);
    expect(types).toContain('WORKFLOW_EXECUTION_SIGNALED');
    expect(types).not.toContain('WORKFLOW_TASK_SCHEDULED');
    expect((await status(workflowId)).status).toBe('running');
    // Queries and updates wait for the run to start: 409, and the update does not start it early.
    for (const [path, name] of [
      ['/workflow/{id}/query/{query}', 'state'],
      ['/workflow/{id}/update/{update}', 'setValue'],
    ] as const) {
      const params = path.includes('query') ? { id: workflowId, query: name } : { id: workflowId, update: name };
      const refused = await h.call('POST', path, { params: params as never, body: { payload: { value: 2 } } });
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(refused.body).toMatchObject({ error: 'WorkflowNotStartedError', workflowId });
      expect(refused.body.message).toMatch(/^The run waits for its start delay until \d{4}-\d\d-\d\dT/);
    }
    const after = await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId } });
    expect(after.body.events.map((e: { eventTypeName: string }) => e.eventTypeName)).not.toContain('WORKFLOW_TASK_SCHEDULED');

    await expect.poll(async () => (await status(workflowId)).status, { timeout: 20_000, interval: 250 }).toBe('completed');
    const done = await status(workflowId);
    expect(done.delayedUntil).toBeNull();
    expect(done.completedAt - done.startedAt).toBeGreaterThanOrEqual(3_900);
    const result = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(result.body.output).toEqual({ value: 'late', pings: 0, finish: { early: true } });
  });

  it('takes milliseconds, and refuses what is not a duration', async () => {
    const ms = await start({ workflowName: 'echo', input: 2, startDelay: 1 });
    expect(ms.status).toBe(200);
    expect((await status(ms.body.workflowId)).delayedUntil).toBeNull();
    for (const startDelay of ['soon', -5, '-1s', '400d']) {
      const bad = await start({ workflowName: 'echo', startDelay });
      expect(bad.status, String(startDelay)).toBe(400);
      expect(bad.body.issues[0].path).toEqual(['body', 'startDelay']);
    }
    const badConflict = await start({ workflowName: 'echo', onConflict: 'replace' });
    expect(badConflict.status).toBe(400);
    expect(badConflict.body.issues[0].path).toEqual(['body', 'onConflict']);
  });
});
