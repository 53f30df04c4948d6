import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { startStack, type Stack } from '../support/stack.js';
import { eventually } from '../support/poll.js';

/**
 * The spine: workflow packages discovered from disk (`examples/` and the external `@skein-fixtures/greetings`
 * it depends on) run through the HTTP API on a real Temporal dev server.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('examples');
});

afterAll(async () => {
  await stack?.close();
});

describe('POST /workflow/run', () => {
  it('runs a local workflow (steps + evaluator) and answers completed with its output', async () => {
    const input = { text: 'Temporal runs workflows. Workflows are durable. Durable workflows survive crashes.' };
    const res = await stack.post('/workflow/run', { workflowName: 'summarize', input });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'completed',
      input,
      output: {
        words: 10,
        sentences: 3,
        keywords: ['workflows', 'durable', 'crashes'],
        readability: { value: 'easy', confidence: 0.8, reasoning: '3.3 words per sentence' },
      },
      error: null,
      errorDetails: null,
      trace: { destinations: {} },
    });
    expect(res.body.workflowId).toEqual(expect.any(String));
    expect(res.body.runId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('runs a workflow by alias; it calls an external package workflow as a child and shared steps of both', async () => {
    const res = await stack.post('/workflow/run', {
      workflowName: 'onboard_customer',
      input: { name: 'ada lovelace', email: ' Ada@Example.com ', locale: 'fr' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.output).toEqual({
      customerId: 'ada-lovelace',
      email: 'ada@example.com',
      welcome: 'Bienvenue, Ada Lovelace!',
      lead: { value: 'business', confidence: 0.7, reasoning: 'domain example.com' },
    });
  });

  it('runs a workflow exposed by an installed package by its name (SPEC rule 6)', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'welcome', input: { name: 'grace HOPPER', locale: 'de' } });
    expect(res.body).toMatchObject({ status: 'completed', output: { message: 'Willkommen, Grace Hopper!' } });
  });

  it('reports a failing workflow as HTTP 200 with status failed and the failure details', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'onboard', input: { name: 'x', email: 'not-an-email' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.output).toBeNull();
    expect(res.body.error).toContain('"not-an-email" is not an email address');
    expect(res.body.errorDetails).toMatchObject({
      message: expect.stringContaining('not an email address'),
      name: expect.any(String),
      retryable: expect.any(Boolean),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/\n\s+at /);
  });

  it('fails non-retryably with a clear message when the input breaks the workflow schema', async () => {
    const res = await stack.post('/workflow/run', { workflowName: 'summarize', input: { text: '' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.error).toContain('Invalid input of workflow "summarize": text:');
  });

  it('answers 404 UnsupportedWorkflowError quickly for an unknown workflowName and starts nothing', async () => {
    const workflowId = `never-started-${Date.now()}`;
    const t0 = performance.now();
    const res = await stack.post('/workflow/run', { workflowName: 'doesNotExist', workflowId, input: {} });
    const elapsed = performance.now() - t0;
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'UnsupportedWorkflowError', message: expect.stringContaining('doesNotExist') });
    expect(elapsed).toBeLessThan(1000);
    const connection = await Connection.connect({ address: stack.address });
    try {
      const client = new Client({ connection });
      await expect(client.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    } finally {
      await connection.close();
    }
  });

  it('answers 400 ValidationError with issues for an invalid body and for malformed JSON', async () => {
    const invalid = await stack.post('/workflow/run', { input: {} });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('ValidationError');
    expect(invalid.body.issues.length).toBeGreaterThan(0);
    const malformed = await stack.post('/workflow/run', '{"workflowName": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'ValidationError', issues: [expect.any(Object)] });
  });
});

describe('POST /workflow/start then GET result', () => {
  it('answers the result on the unpinned and the pinned route', async () => {
    const started = await stack.post('/workflow/start', { workflowName: 'summarize', input: { text: 'One. Two words.' } });
    expect(started.status).toBe(200);
    const { workflowId, runId } = started.body;
    expect(runId).toEqual(expect.any(String));
    const latest = await eventually(async () => {
      const answer = await stack.get(`/workflow/${workflowId}/result`);
      return answer.status === 409 ? undefined : answer;
    }, 30_000);
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ v: '2', workflowId, runId, status: 'completed', output: { words: 3, sentences: 2 }, error: null });
    const pinned = await stack.get(`/workflow/${workflowId}/runs/${runId}/result`);
    expect(pinned.body).toEqual(latest.body);
  });
});

describe('GET /workflow/catalog', () => {
  it('lists the discovered workflows with aliases, schemas and own activities, and shared activities once', async () => {
    const res = await stack.get('/workflow/catalog');
    expect(res.status).toBe(200);
    expect(res.body.catalog).toBe(stack.catalog);
    expect(res.body.workflows.map((w: { name: string }) => w.name).sort()).toEqual(['approval', 'fanout', 'onboard', 'pager', 'summarize', 'welcome']);
    const onboard = res.body.workflows.find((w: { name: string }) => w.name === 'onboard');
    expect(onboard).toMatchObject({
      aliases: ['onboard_customer'],
      inputSchema: { type: 'object', required: expect.arrayContaining(['name', 'email']) },
      activities: [
        { name: 'normalizeEmail', kind: 'step', shared: false, type: 'onboard#normalizeEmail' },
        { name: 'scoreLead', kind: 'evaluator', shared: false, type: 'onboard#scoreLead' },
      ],
    });
    expect(res.body.sharedActivities).toEqual([
      { name: 'slugify', kind: 'step', package: null },
      { name: 'titleCase', kind: 'step', package: '@skein-fixtures/greetings' },
    ]);
  });
});

describe('GET /ready', () => {
  it('is 200 while the engine answers', async () => {
    const res = await stack.get('/ready');
    expect(res).toMatchObject({ status: 200, body: { status: 'ready' } });
  });
});
