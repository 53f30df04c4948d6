import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestEnv, replayHistories, type TestEnv } from '@skein/testing';
import { temporal } from '@temporalio/proto';
// @ts-expect-error plain JavaScript example without declarations
import summarize from '../../examples/summarize/workflow.js';
import { repoRoot } from '../support/stack.js';

const EventType = temporal.api.enums.v1.EventType;
const text = 'Durable workflows survive crashes. Temporal replays them.';

describe('@skein/testing on the shared dev server', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({ projectDir: path.join(repoRoot, 'examples'), temporalAddress: inject('temporalAddress') });
  }, 120_000);
  afterAll(async () => env?.close());

  it('runs a workflow on the engine, by definition or by name', async () => {
    const out = await env.run(summarize, { text });
    expect(out).toMatchObject({ words: 7, sentences: 2, keywords: ['crashes', 'durable', 'replays'] });
    await expect(env.run('summarize', { text: 'One.' })).resolves.toMatchObject({ words: 1 });
  });

  it('replaces steps and evaluators by name until restored', async () => {
    const seen: unknown[] = [];
    const restore = env.mockSteps({
      countWords: (input) => (seen.push(input), { words: 99, sentences: 1 }),
      judgeReadability: () => ({ value: 'hard', confidence: 1, reasoning: 'mocked' }),
    });
    try {
      await expect(env.run(summarize, { text })).resolves.toMatchObject({ words: 99, readability: { value: 'hard' } });
      expect(seen).toEqual([{ text }]);
    } finally {
      restore();
    }
    await expect(env.run(summarize, { text })).resolves.toMatchObject({ words: 7, readability: { value: 'easy' } });
    expect(() => env.mockSteps({ countWordz: () => 0 })).toThrow(/no step or evaluator named countWordz; the project has .*countWords/);
  });

  it('replays a recorded history cleanly, and reports one whose activities differ from the code', async () => {
    const handle = await env.start(summarize, { text }, { workflowId: `replay-${Date.now()}` });
    await handle.result();
    const recorded = await env.history(handle.workflowId);
    expect(await replayHistories(env, [recorded])).toEqual([]);

    const tampered = structuredClone(recorded);
    const scheduled = tampered.history.events!.find((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)!;
    scheduled.activityTaskScheduledEventAttributes!.activityType!.name = 'summarize#somethingElse';
    const failures = await replayHistories(env, [tampered]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      workflowId: handle.workflowId,
      runId: handle.firstExecutionRunId,
      workflowType: 'summarize',
      kind: 'nondeterminism',
      message: expect.stringContaining('summarize#somethingElse'),
      event: { eventType: 'ACTIVITY_TASK_SCHEDULED' },
    });
  });
});
