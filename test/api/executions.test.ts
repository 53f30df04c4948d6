import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, type Harness } from './support.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const unique = (p: string) => `${p}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

describe('POST /workflow/run', () => {
  it('runs a workflow by name and answers completed with input and output', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: { hello: 'world' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      input: { hello: 'world' },
      output: { hello: 'world' },
      status: 'completed',
      trace: { destinations: { local: expect.any(String) } },
      error: null,
      errorDetails: null,
      failure: null,
    });
    expect(res.body.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('accepts an alias and starts the canonical workflow type', async () => {
    const workflowId = unique('alias');
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echoAlias', input: 7, workflowId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workflowId, output: 7, status: 'completed' });
    const d = await h.client.workflow.getHandle(workflowId).describe();
    expect(d.type).toBe('echo');
  });

  it('defaults a missing input to null', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo' } });
    expect(res.body).toMatchObject({ input: null, output: null, status: 'completed' });
  });

  it('reports a step failure as 200 failed with error, errorDetails and a sanitized failure chain', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'failing', input: { message: 'kaput' } } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.output).toBeNull();
    expect(res.body.error).toBe('kaput');
    expect(res.body.errorDetails).toMatchObject({ message: 'kaput', name: 'RangeError', activityId: expect.any(String) });
    expect(res.body.failure).toMatchObject({ type: 'ActivityFailure', cause: { message: 'kaput', type: 'RangeError' } });
    expect(res.text).not.toMatch(/stack|at .*\.js:\d+/);
  });

  it('answers 408 WorkflowExecutionTimedOutError after `timeout` ms while the execution keeps running', async () => {
    const workflowId = unique('slow');
    const started = Date.now();
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'sleeper', input: { ms: 4000 }, timeout: 500, workflowId } });
    const took = Date.now() - started;
    expect(res.status).toBe(408);
    expect(res.body).toEqual({ error: 'WorkflowExecutionTimedOutError', message: expect.any(String), workflowId });
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(4000);
    const status = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    expect(status.body.status, JSON.stringify(status.body)).toBe('running');
    // The execution outlives the request and completes on its own.
    const done = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
      return r.status === 200 ? r : undefined;
    });
    expect(done.body).toMatchObject({ status: 'completed', output: { slept: 4000 } });
  });

  it('catalog wins over the deprecated taskQueue', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 1, catalog: h.catalog, taskQueue: 'no-such-queue' } });
    expect(res.status).toBe(200);
    expect(res.body.output).toBe(1);
    const viaTaskQueue = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 2, taskQueue: h.catalog } });
    expect(viaTaskQueue.body.output).toBe(2);
  });

  it('answers 404 UnsupportedWorkflowError for an unknown workflowName quickly and starts nothing', async () => {
    const workflowId = unique('unknown');
    const started = Date.now();
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'doesNotExist', workflowId } });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'UnsupportedWorkflowError', workflowId: null });
    const status = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    expect(status.status).toBe(404);
  });

  it('answers 404 CatalogNotAvailableError for a catalog no worker serves', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', catalog: 'nobody-serves-this' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('CatalogNotAvailableError');
  });

  it('answers 409 WorkflowExecutionAlreadyStartedError for a workflowId already running', async () => {
    const workflowId = unique('dup');
    const first = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter', workflowId } });
    expect(first.status).toBe(200);
    const second = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', workflowId } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: 'WorkflowExecutionAlreadyStartedError', workflowId });
    const third = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter', workflowId } });
    expect(third.status).toBe(409);
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('answers 400 ValidationError with issues for an invalid body', async () => {
    for (const body of [{}, { workflowName: 3 }, { workflowName: 'echo', timeout: 10 }, { workflowName: 'echo', timeout: 'soon' }, [1, 2]]) {
      const res = await h.call('POST', '/workflow/run', { body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ValidationError');
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
  });

  it('answers 400 ValidationError with one issue for malformed JSON', async () => {
    const res = await h.call('POST', '/workflow/run', { rawBody: '{"workflowName": ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', issues: [expect.objectContaining({ path: ['body'] })] });
    expect(res.body.issues).toHaveLength(1);
    expect(res.body.issues[0]).toMatchObject({ code: 'invalid_json', message: 'Request body is not valid JSON' });
    // Valid JSON the API refuses is not called malformed: a bare value, a "__proto__" key.
    for (const [rawBody, code] of [
      ['null', 'invalid_type'],
      ['"text"', 'invalid_type'],
      ['{"workflowName":"echo","input":{"__proto__":{"polluted":1}}}', 'forbidden_key'],
    ]) {
      const refused = await h.call('POST', '/workflow/run', { rawBody });
      expect(refused.status, rawBody).toBe(400);
      expect(refused.body).toMatchObject({ message: 'Invalid request body', issues: [{ code, path: ['body'] }] });
      expect(refused.body.issues[0].message).not.toContain('not valid JSON');
    }
  });

  it('answers 413 PayloadTooLargeError for a body over 1 MiB', async () => {
    const res = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo', input: 'x'.repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('PayloadTooLargeError');
  });
});

describe('POST /workflow/start and reading a run', () => {
  it('starts, then status, result, input (latest and pinned) agree', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'echo', input: { n: 1 } } });
    expect(start.status).toBe(200);
    const { workflowId, runId } = start.body;
    const result = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/runs/{rid}/result', { params: { id: workflowId, rid: runId } });
      return r.status === 200 ? r : undefined;
    });
    expect(result.body).toEqual({
      v: '2',
      workflowId,
      runId,
      status: 'completed',
      input: { n: 1 },
      output: { n: 1 },
      trace: { destinations: { local: expect.stringMatching(/\.json$/) } },
      error: null,
    });
    const latest = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(latest.body).toEqual(result.body);
    const status = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    expect(status.body).toMatchObject({ workflowId, runId, status: 'completed', startedAt: expect.any(Number), completedAt: expect.any(Number) });
    const pinned = await h.call('GET', '/workflow/{id}/runs/{rid}/status', { params: { id: workflowId, rid: runId } });
    expect(pinned.body).toEqual(status.body);
    const input = await h.call('GET', '/workflow/{id}/runs/{rid}/input', { params: { id: workflowId, rid: runId } });
    expect(input.body).toEqual({ workflowId, runId, input: { n: 1 } });
    const original = await h.call('GET', '/workflow/{id}/input', { params: { id: workflowId } });
    expect(original.body).toEqual({ workflowId, runId, input: { n: 1 } });
  });

  it('result of a failed run: 200, status failed, error with activityType', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'failing', input: { message: 'nope' } } });
    const res = await h.call('GET', '/workflow/{id}/result', { params: { id: run.body.workflowId } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ v: '2', status: 'failed', output: null, error: { activityType: 'failing#explode', name: 'RangeError', message: 'nope' } });
  });

  it('result of a running run is 409 WorkflowNotCompletedError; status running with completedAt null', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const { workflowId, runId } = start.body;
    const res = await h.call('GET', '/workflow/{id}/runs/{rid}/result', { params: { id: workflowId, rid: runId } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'WorkflowNotCompletedError', workflowId });
    const status = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
    expect(status.body).toMatchObject({ status: 'running', completedAt: null });
    await h.client.workflow.getHandle(workflowId).terminate();
  });

  it('spells canceled in status and cancelled in the result response', async () => {
    const start = await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter' } });
    const { workflowId, runId } = start.body;
    await eventually(async () => (await h.call('GET', '/workflow/{id}/history', { params: { id: workflowId } })).body.events.length >= 3);
    const stop = await h.call('PATCH', '/workflow/{id}/runs/{rid}/stop', { params: { id: workflowId, rid: runId } });
    expect(stop.body).toEqual({ workflowId, runId });
    const status = await eventually(async () => {
      const r = await h.call('GET', '/workflow/{id}/status', { params: { id: workflowId } });
      return r.body.status !== 'running' ? r : undefined;
    });
    expect(status.body.status).toBe('canceled');
    const result = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(result.body.status).toBe('cancelled');
  });

  it('continue-as-new: run waits for the last run of the chain; pinned routes target a run, unpinned ones the latest; input is the original', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'looper', input: { seed: 5 } } });
    // The run route follows the chain: the last run's outcome, the started run's id and input.
    expect(run.body).toMatchObject({ status: 'completed', output: { seed: 5, iteration: 1 }, input: { seed: 5 }, error: null });
    const { workflowId, runId } = run.body;
    const latest = await h.call('GET', '/workflow/{id}/result', { params: { id: workflowId } });
    expect(latest.status).toBe(200);
    expect(latest.body.runId).not.toBe(runId);
    expect(latest.body).toMatchObject({ status: 'completed', output: { seed: 5, iteration: 1 }, input: { seed: 5, iteration: 1 } });
    // The trace answered is the last run's (its file is named after that run), as its output is.
    expect(run.body.trace).toEqual(latest.body.trace);
    expect(run.body.trace.destinations.local).toContain(latest.body.runId);
    const first = await h.call('GET', '/workflow/{id}/runs/{rid}/result', { params: { id: workflowId, rid: runId } });
    expect(first.body).toMatchObject({ runId, status: 'continued_as_new', output: null });
    const original = await h.call('GET', '/workflow/{id}/input', { params: { id: workflowId } });
    expect(original.body).toEqual({ workflowId, runId, input: { seed: 5 } });
    const second = await h.call('GET', '/workflow/{id}/runs/{rid}/input', { params: { id: workflowId, rid: latest.body.runId } });
    expect(second.body.input).toEqual({ seed: 5, iteration: 1 });
  });

  it('unknown executions and runs are 404 WorkflowNotFoundError; a malformed run id is 400', async () => {
    const missing = await h.call('GET', '/workflow/{id}/result', { params: { id: 'no-such-workflow' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'WorkflowNotFoundError' });
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'echo' } });
    const otherRun = '01a1feb5-0000-7000-8000-000000000000';
    for (const t of ['/workflow/{id}/runs/{rid}/result', '/workflow/{id}/runs/{rid}/status', '/workflow/{id}/runs/{rid}/input']) {
      const r = await h.call('GET', t, { params: { id: run.body.workflowId, rid: otherRun } });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('WorkflowNotFoundError');
    }
    const bad = await h.call('GET', '/workflow/{id}/runs/{rid}/status', { params: { id: run.body.workflowId, rid: 'not-a-uuid' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ValidationError');
  });
});

describe('GET /workflow/runs', () => {
  it('lists runs with their status, filtered by workflow type and catalog', async () => {
    const run = await h.call('POST', '/workflow/run', { body: { workflowName: 'twoSteps', input: { n: 1 } } });
    const list = await eventually(async () => {
      const r = await h.call('GET', '/workflow/runs', { query: { workflowType: 'twoSteps', catalog: h.catalog, limit: 10 } });
      // Visibility is eventually consistent: a closed run may be listed as running for a moment first.
      return r.body.runs.some((x: { runId: string; status: string }) => x.runId === run.body.runId && x.status !== 'running') ? r : undefined;
    });
    expect(list.body.count).toBe(list.body.runs.length);
    for (const r of list.body.runs) expect(r.workflowType).toBe('twoSteps');
    const listed = list.body.runs.find((x: { runId: string }) => x.runId === run.body.runId);
    expect(listed).toMatchObject({ status: 'completed', workflowId: run.body.workflowId });
    // ISO 8601 strings here (CONTRACT), unlike the status route's epoch ms.
    const status = await h.call('GET', '/workflow/{id}/status', { params: { id: run.body.workflowId } });
    expect(listed.startedAt).toBe(new Date(status.body.startedAt).toISOString());
    expect(listed.completedAt).toBe(new Date(status.body.completedAt).toISOString());
    const bad = await h.call('GET', '/workflow/runs', { query: { limit: 0 } });
    expect(bad.status).toBe(400);
    // A catalog name holds no `@` here as on start and in /workflow/catalog/{catalog}.
    const at = await h.call('GET', '/workflow/runs', { query: { catalog: 'a@b' } });
    expect(at.status).toBe(400);
    expect(at.body.issues[0]).toMatchObject({ path: ['query', 'catalog'] });
  });
});
