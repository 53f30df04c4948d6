import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';
import { waitForHooks } from '../support/hook-log.js';

/**
 * Hooks never run during replay: with the workflow cache off (`maxCachedWorkflows: 0`) the worker replays the
 * whole history on every workflow task, yet each lifecycle event reaches its hook exactly once.
 */
let stack: Stack;
let dir: string;
let hookLog: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-replay-'));
  hookLog = path.join(dir, 'hooks.jsonl');
  process.env.SKEIN_HOOK_LOG = hookLog;
  stack = await startStack('fixtures/projects/runtime', {}, { traceDir: false, workerOptions: { maxCachedWorkflows: 0 } });
});

afterAll(async () => {
  await stack?.close();
  delete process.env.SKEIN_HOOK_LOG;
  await rm(dir, { recursive: true, force: true });
});

describe('hooks and replay', () => {
  it('delivers each workflow event once although every workflow task replays the history', async () => {
    // `options` has 4 workflow tasks (start, after the step, after the child, completion), each a full replay here.
    const res = await stack.post('/workflow/run', { workflowName: 'options', input: null });
    expect(res.body.status).toBe('completed');
    const { runId } = res.body;
    const records = await waitForHooks(hookLog, (rs) => rs.some((r) => r.hook === 'onWorkflowEnd' && r.payload.workflowDetails.runId === runId));
    const mine = records.filter((r) => r.payload.workflowDetails?.runId === runId);
    expect(mine.filter((r) => r.hook === 'onWorkflowStart')).toHaveLength(1);
    expect(mine.filter((r) => r.hook === 'onWorkflowEnd')).toHaveLength(1);
    expect(mine.filter((r) => r.hook === 'onActivityStart')).toHaveLength(1);
    // The child workflow's own start is reported once too, with its parent and root.
    const child = records.filter((r) => r.hook === 'onWorkflowStart' && r.payload.workflowDetails.parent?.runId === runId);
    expect(child).toHaveLength(1);
    expect(child[0]!.payload.workflowDetails).toMatchObject({ workflowType: 'optionsChild', root: { runId } });
  });
});
