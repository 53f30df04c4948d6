import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skein } from '../cli/client-support.js';
import { startStack, type Stack } from '../support/stack.js';

/**
 * The authoring surface in Temporal's workflow sandbox, on the shared engine, with a worker that keeps no workflow in
 * its cache: every workflow task replays the run's history from the start, so anything written during a replay would
 * show up more than once.
 */
let stack: Stack;
const lines: Array<Record<string, any>> = [];

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, any>);
      done();
    },
  });
  stack = await startStack('fixtures/projects/seed-surface', {}, { logger: pino({ level: 'trace' }, capture), workerOptions: { maxCachedWorkflows: 0 } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

const loggerLines = (runId: string) => lines.filter((l) => l.component === 'Logger' && l.runId === runId);

describe('Logger in workflow code', () => {
  it('writes each line once, with the run ids, although every workflow task replays the history', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'logger', input: { seed: 'replay' } });
    expect(res.body).toMatchObject({ status: 'completed', output: { word: 'replay-word' } });
    const { workflowId, runId } = res.body;
    await expect.poll(() => loggerLines(runId).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
    const fromWorkflow = loggerLines(runId).filter((l) => l.msg.startsWith('workflow'));
    expect(fromWorkflow.map((l) => l.msg)).toEqual(['workflow line', 'workflow reserved line']);
    expect(fromWorkflow[0]).toMatchObject({ workflowId, runId, workflowType: 'logger', logLevel: 'info', level: 30, seed: 'replay' });
    expect(fromWorkflow[0]).not.toHaveProperty('activityId');
    expect(fromWorkflow[1]).toMatchObject({ msg: 'workflow reserved line', fields: { message: 'not the message' }, word: 'replay-word', level: 40 });
    // The step's lines carry the activity's ids; a step runs once, so its seven levels appear once each.
    const fromStep = loggerLines(runId).filter((l) => l.msg === 'step line');
    expect(fromStep.map((l) => l.logLevel)).toEqual(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']);
    expect(new Set(fromStep.map((l) => l.activityId)).size).toBe(1);
  });

  it('the signal handlers of temporal_client log once each, through replays of the signals', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'temporal_client' });
    expect(res.body).toMatchObject({ status: 'completed', output: { signals: { currentHandleReady: true, clientReady: true } } });
    await expect
      .poll(
        () =>
          loggerLines(res.body.runId)
            .map((l) => l.msg)
            .sort(),
        { timeout: 10_000 },
      )
      .toEqual(['current handle signal received', 'new client signal received']);
  });
});

describe('sendPostRequestAndAwaitWebhook in workflow code', () => {
  it('waits through replays until the feedback arrives, and completes with its payload', async () => {
    const heartbeat = `${stack.url}/heartbeat`;
    const started = await stack.post('/workflow/start', { workflowName: 'webhook', input: { url: heartbeat } });
    const { workflowId } = started.body;
    const status = async () => (await stack.get(`/workflow/${workflowId}/status`)).body.status;
    // The POST went to the API's own heartbeat (204); the run now waits for its feedback.
    await expect
      .poll(async () => (await stack.get(`/workflow/${workflowId}/history`)).body.events?.some((e: any) => e.eventTypeName === 'ACTIVITY_TASK_COMPLETED'), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await status()).toBe('running');
    // Through the CLI: a payload that is not an object is refused before any request; then the feedback is sent.
    const bad = await skein(stack.url, ['workflow', 'feedback', workflowId, '--payload', '[1]']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--payload of feedback must be a JSON object');
    expect(await status()).toBe('running');
    const sent = await skein(stack.url, ['workflow', 'feedback', workflowId, '--payload', '{"value":1}', '--json']);
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toEqual({ workflowId, runId: started.body.runId });
    await expect.poll(status, { timeout: 20_000 }).toBe('completed');
    expect((await stack.get(`/workflow/${workflowId}/result`)).body.output).toEqual({ value: 1 });
  });
});

describe('feedback to a run that is not waiting for a webhook', () => {
  it('is delivered (200) and ignored: the run keeps waiting for its own signal and completes without it', async () => {
    const started = await stack.post('/workflow/start', { workflowName: 'approval' });
    const { workflowId, runId } = started.body;
    const feedback = await stack.post(`/workflow/${workflowId}/feedback`, { payload: { value: 1 } });
    expect(feedback).toMatchObject({ status: 200, body: { workflowId, runId } });
    await expect
      .poll(async () => (await stack.get(`/workflow/${workflowId}/history`)).body.events?.some((e: any) => e.eventTypeName === 'WORKFLOW_EXECUTION_SIGNALED'))
      .toBe(true);
    expect((await stack.get(`/workflow/${workflowId}/status`)).body.status).toBe('running');
    await stack.post(`/workflow/${workflowId}/signal/approve`, { payload: { by: 'ada' } });
    await expect.poll(async () => (await stack.get(`/workflow/${workflowId}/result`)).body.output, { timeout: 20_000 }).toEqual({ approvedBy: 'ada' });
  });
});
