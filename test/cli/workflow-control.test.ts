/**
 * `skein workflow` signal, query, update, stop, terminate, `run --timeout` and `history --follow`, against a real
 * stack (worker on examples/): the `approval` example stays open until a `decide` signal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { pino } from 'pino';
import { spawnSkein } from '../support/processes.js';
import { startStack, type Stack } from '../support/stack.js';
import { oneTo, printedEventIds, skein, until } from './client-support.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let stack: Stack;
let restarted: ApiServer | undefined;
const sk = (args: string[]) => skein(stack.url, args);

beforeAll(async () => {
  stack = await startStack('examples');
});

afterAll(async () => {
  await restarted?.close();
  await stack?.close();
});

/** Starts an `approval` run with the CLI and waits until its handlers are registered (first workflow task done). */
async function startApproval(request: string): Promise<{ workflowId: string; runId: string }> {
  const res = await sk(['workflow', 'start', 'approval', '--json', '--input', JSON.stringify({ request, approver: 'ada' })]);
  expect(res.code).toBe(0);
  const ref = JSON.parse(res.stdout) as { workflowId: string; runId: string };
  await until(async () =>
    (await stack.get(`/workflow/${ref.workflowId}/history`)).body.events.some(
      (e: { eventType: string }) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED',
    ),
  );
  return ref;
}

describe('signal, query, update', () => {
  it('signals the latest run, prints query and update answers; handler errors exit 3', async () => {
    const { workflowId, runId } = await startApproval('a');
    const comment = await sk(['workflow', 'signal', workflowId, 'comment', '--payload', '{"text":"looks fine"}']);
    expect(comment).toEqual({ code: 0, stdout: `signal comment sent  ${workflowId}  run ${runId}\n`, stderr: '' });

    await until(async () => JSON.stringify((await stack.post(`/workflow/${workflowId}/query/status`, {})).body).includes('looks fine'));
    const query = await sk(['workflow', 'query', workflowId, 'status']);
    expect(query.code).toBe(0);
    expect(JSON.parse(query.stdout)).toEqual({ state: 'waiting', comments: ['looks fine'], deadlineMinutes: 60 });

    const update = await sk(['workflow', 'update', workflowId, 'extend', '--payload', '30', '--json']);
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout)).toEqual(90);

    const unknown = await sk(['workflow', 'query', workflowId, 'nope']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^error: QueryNotFoundError: .*nope/);
    const badPayload = await sk(['workflow', 'signal', workflowId, 'comment', '--payload', '[1]']);
    expect(badPayload).toMatchObject({ code: 2, stderr: 'error: --payload of a signal must be a JSON object\n' });

    const decide = await sk(['workflow', 'signal', workflowId, 'decide', '--payload', '{"approved":true,"by":"ada"}', '--json']);
    expect(JSON.parse(decide.stdout)).toEqual({ workflowId, runId });
    await until(async () => (await stack.get(`/workflow/${workflowId}/status`)).body.status === 'completed');
    const result = await sk(['workflow', 'result', workflowId]);
    expect(JSON.parse(result.stdout)).toEqual({ request: 'a', state: 'approved', decidedBy: 'ada', comments: ['looks fine'] });
  });
});

describe('stop and terminate', () => {
  it('stop cancels the latest run through the pinned route; result and follow then exit 1', async () => {
    const { workflowId, runId } = await startApproval('stop me');
    const stop = await sk(['workflow', 'stop', workflowId]);
    expect(stop).toEqual({ code: 0, stdout: `cancellation requested  ${workflowId}  run ${runId}\n`, stderr: '' });
    await until(async () => (await stack.get(`/workflow/${workflowId}/status`)).body.status === 'canceled');
    const result = await sk(['workflow', 'result', workflowId]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^⊘ cancelled {2}approval {2}${workflowId} {2}run ${runId} {2}[\\d.]+ m?s\n`));

    const follow = await sk(['workflow', 'history', workflowId, '--follow', '--json']);
    expect(follow.code).toBe(1);
    const frames = follow.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(frames[0]).toMatchObject({ type: 'workflow', workflow: { workflowId, runId, workflowType: 'approval' } });
    expect(frames.at(-1)).toEqual({ type: 'done', workflowId, runId, status: 'canceled' });
    expect(frames.slice(1, -1).map((f) => f.event.eventId)).toEqual(oneTo(frames.length - 2));
  });

  it('terminate --run ends that run with a reason; a second terminate exits 3', async () => {
    const { workflowId, runId } = await startApproval('stop me');
    const res = await sk(['workflow', 'terminate', workflowId, '--run', runId, '--reason', 'cli says bye']);
    expect(res).toEqual({ code: 0, stdout: `terminated  ${workflowId}  run ${runId}\n`, stderr: '' });
    const status = await sk(['workflow', 'status', workflowId, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ runId, status: 'terminated' });
    const history = await sk(['workflow', 'history', workflowId]);
    expect(history.stdout.trimEnd().split('\n').at(-1)).toMatch(/WORKFLOW_EXECUTION_TERMINATED +cli says bye$/);
    const again = await sk(['workflow', 'terminate', workflowId]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/^error: WorkflowExecutionAlreadyCompletedError: /);
  });
});

describe('--token', () => {
  it('sends the bearer token from --token or SKEIN_API_TOKEN; without it a guarded API answers 401 (exit 3)', async () => {
    const guarded = await createApiServer(
      loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: stack.address, PORT: '0', SKEIN_CATALOG: stack.catalog, SKEIN_API_TOKEN: 's3cret' }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      const { url } = await guarded.listen();
      const { workflowId } = await startApproval('t');
      const none = await skein(url, ['workflow', 'status', workflowId]);
      expect(none.code).toBe(3);
      expect(none.stderr).toMatch(/^error: UnauthorizedError: /);
      const wrong = await skein(url, ['workflow', 'status', workflowId, '--token', 'nope']);
      expect(wrong.code).toBe(3);
      const fromEnv = await skein(url, ['workflow', 'status', workflowId, '--json'], { env: { SKEIN_API_TOKEN: 's3cret' } });
      expect(fromEnv.code).toBe(0);
      expect(JSON.parse(fromEnv.stdout)).toMatchObject({ workflowId, status: 'running' });
      const fromFlag = await skein(url, ['workflow', 'signal', workflowId, 'decide', '--payload', '{"approved":true,"by":"t"}', '--token', 's3cret']);
      expect(fromFlag.code).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});

describe('run --timeout', () => {
  it('exits 1 when the wait ends first, naming the execution that keeps running; result meanwhile exits 3', async () => {
    const res = await sk([
      'workflow',
      'run',
      'approval',
      '--input',
      '{"request":"r","approver":"ada"}',
      '--timeout',
      '500ms',
      '--id',
      `cli-wait-${Date.now()}`,
      '--json',
    ]);
    expect(res.code).toBe(1);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({ error: 'WorkflowExecutionTimedOutError', workflowId: expect.stringMatching(/^cli-wait-/) });
    expect(res.stderr).toBe(`error: WorkflowExecutionTimedOutError: ${body.message}\nthe execution keeps running: skein workflow result ${body.workflowId}\n`);
    const pending = await sk(['workflow', 'result', body.workflowId]);
    expect(pending.code).toBe(3);
    expect(pending.stderr).toMatch(/^error: WorkflowNotCompletedError: /);
    expect(
      (await stack.post(`/workflow/${body.workflowId}/runs/${(await stack.get(`/workflow/${body.workflowId}/status`)).body.runId}/terminate`, {})).status,
    ).toBe(200);
  });
});

describe('history --follow', () => {
  it('streams events as they happen, survives an API restart mid-stream without losing or repeating one, and exits when the run closes', async () => {
    const { workflowId, runId } = await startApproval('x');
    const follow = spawnSkein(['workflow', 'history', workflowId, '--follow'], { SKEIN_API_URL: stack.url });
    follow.child.stdin!.end();
    await follow.waitFor(/WORKFLOW_TASK_COMPLETED/, 30_000);
    expect(follow.stderr()).toBe(`following approval  ${workflowId}  run ${runId}\n`);

    // Restart the API on the same port while the stream is open; the run goes on meanwhile.
    const port = new URL(stack.url).port;
    await stack.api.close();
    await follow.waitFor(/connection lost/, 30_000);
    await new Promise((r) => setTimeout(r, 300)); // at least one refused reconnection
    restarted = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: stack.address, PORT: port, SKEIN_CATALOG: stack.catalog }), {
      logger: pino({ level: 'silent' }),
    });
    await restarted.listen();

    expect((await stack.post(`/workflow/${workflowId}/signal/comment`, { payload: { text: 'during the restart' } })).status).toBe(202);
    await follow.waitFor(/WORKFLOW_EXECUTION_SIGNALED +comment/, 30_000);
    expect((await stack.post(`/workflow/${workflowId}/signal/decide`, { payload: { approved: false, by: 'bob' } })).status).toBe(202);
    expect(await follow.exited).toBe(0);

    const { historyLength } = (await stack.get(`/workflow/${workflowId}/history?pageSize=1`)).body.workflow;
    expect(printedEventIds(follow.stdout())).toEqual(oneTo(historyLength));
    expect(follow.stdout().trimEnd().split('\n').at(-1)).toMatch(/WORKFLOW_EXECUTION_COMPLETED$/);
    expect(follow.stderr()).toMatch(/connection lost \(.+\); resuming after event \d+ in \d+ ms\n/);
    expect(follow.stderr()).toMatch(new RegExp(`✔ completed {2}${workflowId} {2}run ${UUID}\n$`));
  });
});
