/**
 * What `skein dev`'s versioning note reads from the engine after a reload (packages/cli/src/dev/open-runs.ts), on the
 * shared dev server: the runs open on the served catalog's task queue, each with when its last workflow task
 * completed; closed runs and Skein's own `$` records are left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunsReader, type OpenRunsReader } from '../../packages/cli/dist/dev/open-runs.js';
import { eventually } from '../support/poll.js';
import { startStack, type Stack } from '../support/stack.js';

let stack: Stack;
let reader: OpenRunsReader;

/** `probe`'s first value other than undefined (every 200 ms, at most 30 s). */
const until = <T>(probe: () => Promise<T | undefined>): Promise<T> => eventually(probe, 30_000, 200);

beforeAll(async () => {
  stack = await startStack('fixtures/projects/rollout/v1', {}, { traceDir: false });
  reader = await openRunsReader({ address: stack.address }, 'default', stack.catalog);
});

afterAll(async () => {
  await reader?.close();
  await stack?.close();
});

describe('the open runs of the served catalog', () => {
  it('lists a waiting run with the time its last workflow task completed, and not a closed one', async () => {
    const started: string[] = [];
    for (const request of ['closed', 'open']) {
      const res = await until(async () => {
        const r = await stack.post('/workflow/start', { workflowName: 'approval', input: { request } });
        return r.status === 404 ? undefined : r;
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      started.push(res.body.workflowId as string);
    }
    // When the run's last workflow task completed, once it waits for its signal (its step done, and the workflow task
    // after it the last event: none follows until the signal).
    const completedAt = async (workflowId: string): Promise<number | undefined> => {
      const h = await stack.get(`/workflow/${workflowId}/history?pageSize=50`);
      const events = (h.body.events ?? []) as { eventType: string; eventTime: string }[];
      const last = events.at(-1);
      if (!events.some((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED') || last?.eventType !== 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED')
        return undefined;
      return Date.parse(last.eventTime);
    };
    const openDone = await until(() => completedAt(started[1]!));
    await until(() => completedAt(started[0]!));
    expect((await stack.post(`/workflow/${started[0]!}/signal/decide`, { payload: { approved: true } })).status).toBe(202);
    await until(async () => ((await stack.get(`/workflow/${started[0]!}/status`)).body.status === 'completed' ? true : undefined));

    const runs = await until(async () => {
      const r = await reader.read();
      return r.length === 1 ? r : undefined; // visibility lists the closed run as closed a moment after it closes
    });
    expect(runs).toEqual([{ workflowType: 'approval', lastTaskCompletedAt: openDone }]);
  });
});
