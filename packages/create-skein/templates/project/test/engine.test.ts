import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, replayHistories, type TestEnv } from '@skein/testing';
import greet from '../src/greet/workflow.js';

// On a real engine: an ephemeral Temporal dev server and a worker on this project (slower than the in-process
// tests; use it for what only the engine does: retries, timers, signals, replay).
describe('greet, on a Temporal dev server', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv({ projectDir: fileURLToPath(new URL('..', import.meta.url)) });
  }, 180_000);
  afterAll(async () => env?.close());

  it('runs with no input', async () => {
    await expect(env.run(greet, {})).resolves.toMatchObject({ message: 'Hello, world.', tone: { value: 'friendly' } });
  });

  it('runs with a step replaced by name', async () => {
    const restore = env.mockSteps({ composeGreeting: ({ name }: { name: string }) => `Goodbye, ${name}.` });
    try {
      await expect(env.run(greet, { name: 'Ada' })).resolves.toMatchObject({ message: 'Goodbye, Ada.', tone: { value: 'neutral' } });
    } finally {
      restore();
    }
  });

  it('replays its own history (the code stays deterministic)', async () => {
    const handle = await env.start(greet, { excited: true });
    await handle.result();
    expect(await replayHistories(env, [await env.history(handle.workflowId)])).toEqual([]);
  });
});
