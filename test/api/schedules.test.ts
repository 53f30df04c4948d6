/**
 * Schedules through the API on a real Temporal dev server: a schedule every 2 s starts runs that complete and
 * carry its id, pause stops it, trigger starts one run while paused, backfill of past minutes starts one run per
 * due minute, PATCH changes it, delete removes it; and every bad input is refused with nothing created.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from './support.js';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/projects/schedules');

let h: Harness;
const created: string[] = [];

beforeAll(async () => {
  h = await startHarness({}, { projectDir: PROJECT });
});

afterAll(async () => {
  // Schedules outlive the test's worker: delete every one this file created (and the declared one of its catalog).
  for (const id of [...created, `${h?.catalog}:greet:daily`])
    await h?.client.schedule
      .getHandle(id)
      .delete()
      .catch(() => {});
  await h?.close();
});

/** A schedule id unique to this run of the file. */
function newId(label: string): string {
  const id = `${h.catalog}-${label}`;
  created.push(id);
  return id;
}

async function describeSchedule(scheduleId: string) {
  const res = await h.call('GET', '/schedules/{scheduleId}', { params: { scheduleId } });
  expect(res.status).toBe(200);
  return res.body;
}

describe('a schedule every 2 s', () => {
  it('starts runs that complete and carry its id; pause stops it, trigger runs it while paused, delete removes it', async () => {
    const scheduleId = newId('every2s');
    const create = await h.call('POST', '/schedules', {
      body: { scheduleId, workflowName: 'greet', input: { name: 'tick' }, spec: { every: '2s' }, note: 'made by a test' },
    });
    expect(create.status).toBe(201);
    expect(create.body).toEqual({ scheduleId });

    const first = await describeSchedule(scheduleId);
    expect(first).toMatchObject({
      scheduleId,
      workflowName: 'greet',
      input: { name: 'tick' },
      catalog: h.catalog,
      spec: { every: '2s' },
      overlap: 'skip',
      paused: false,
      note: 'made by a test',
      declared: false,
    });
    expect(first.nextActionTimes.length).toBeGreaterThan(0);

    // Two runs started, oldest first, and both completed with the greeting.
    const started = await vi.waitFor(
      async () => {
        const actions = (await describeSchedule(scheduleId)).recentActions;
        expect(actions.length).toBeGreaterThanOrEqual(2);
        return actions.slice(0, 2);
      },
      { timeout: 20_000, interval: 500 },
    );
    expect(Date.parse(started[0].scheduledAt)).toBeLessThan(Date.parse(started[1].scheduledAt));
    for (const action of started) {
      expect(action.workflowId.startsWith(`${scheduleId}-`)).toBe(true);
      await expect
        .poll(async () => (await h.call('GET', '/workflow/{id}/status', { params: { id: action.workflowId } })).body.status, { timeout: 15_000 })
        .toBe('completed');
      const status = await h.call('GET', '/workflow/{id}/status', { params: { id: action.workflowId } });
      expect(status.body).toMatchObject({ runId: action.runId, scheduleId });
      const result = await h.call('GET', '/workflow/{id}/result', { params: { id: action.workflowId } });
      expect(result.body.output).toBe('hello tick');
    }
    // The trace names the schedule on the run's node.
    const trace = await vi.waitFor(
      async () => {
        const r = await h.call('GET', '/workflow/{id}/runs/{rid}/trace-log', { params: { id: started[0].workflowId, rid: started[0].runId } });
        expect(r.status).toBe(200);
        return r.body;
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(trace.data.tree).toMatchObject({ kind: 'workflow', name: 'greet', scheduleId });

    // The run list filters on the schedule (visibility catches up within moments).
    await expect
      .poll(
        async () => {
          const runs = await h.call('GET', '/workflow/runs', { query: { scheduleId } });
          return started.every((a: { workflowId: string }) => runs.body.runs.some((r: { workflowId: string }) => r.workflowId === a.workflowId));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const others = await h.call('GET', '/workflow/runs', { query: { scheduleId: `${scheduleId}-none` } });
    expect(others.body.runs).toEqual([]);

    const pause = await h.call('POST', '/schedules/{scheduleId}/pause', { params: { scheduleId }, body: { note: 'maintenance' } });
    expect(pause.status).toBe(200);
    expect(pause.body).toEqual({ scheduleId, paused: true, note: 'maintenance' });
    const paused = await describeSchedule(scheduleId);
    expect(paused).toMatchObject({ paused: true, note: 'maintenance' });
    const lastBefore = paused.recentActions.at(-1).scheduledAt as string;
    // Three intervals pass: nothing comes due while paused.
    await new Promise((r) => setTimeout(r, 6_000));
    const still = await describeSchedule(scheduleId);
    expect(still.recentActions.at(-1).scheduledAt).toBe(lastBefore);

    const trigger = await h.call('POST', '/schedules/{scheduleId}/trigger', { params: { scheduleId } });
    expect(trigger.status).toBe(202);
    const newer = async () => (await describeSchedule(scheduleId)).recentActions.filter((a: { scheduledAt: string }) => a.scheduledAt > lastBefore);
    await expect.poll(async () => (await newer()).length, { timeout: 15_000 }).toBe(1);
    const [triggered] = await newer();
    await expect
      .poll(async () => (await h.call('GET', '/workflow/{id}/status', { params: { id: triggered.workflowId } })).body.status, { timeout: 15_000 })
      .toBe('completed');
    expect((await describeSchedule(scheduleId)).paused).toBe(true);

    const unpause = await h.call('POST', '/schedules/{scheduleId}/unpause', { params: { scheduleId } });
    expect(unpause.body).toMatchObject({ scheduleId, paused: false });

    const del = await h.call('DELETE', '/schedules/{scheduleId}', { params: { scheduleId } });
    expect([del.status, del.text]).toEqual([204, '']);
    const gone = await h.call('GET', '/schedules/{scheduleId}', { params: { scheduleId } });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'ScheduleNotFoundError' });
  });
});

describe('backfill, change and list', () => {
  it('backfill of past minutes starts one run per due minute, even while paused', async () => {
    const scheduleId = newId('minutely');
    const create = await h.call('POST', '/schedules', {
      body: { scheduleId, workflowName: 'greet', input: { name: 'past' }, spec: { cron: ['* * * * *'] }, paused: true },
    });
    expect(create.status).toBe(201);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    // The engine's range is exclusive of its start: begin 30 s before the first minute wanted.
    const expected = [3, 2, 1].map((k) => new Date(minute - k * 60_000).toISOString());
    const backfill = await h.call('POST', '/schedules/{scheduleId}/backfill', {
      params: { scheduleId },
      body: { startAt: new Date(minute - 3 * 60_000 - 30_000).toISOString(), endAt: new Date(minute - 30_000).toISOString() },
    });
    expect(backfill.status).toBe(202);
    await expect
      .poll(async () => (await describeSchedule(scheduleId)).recentActions.map((a: { scheduledAt: string }) => a.scheduledAt), { timeout: 20_000 })
      .toEqual(expected);
    const d = await describeSchedule(scheduleId);
    expect(d.paused).toBe(true);
    for (const a of d.recentActions) {
      await expect
        .poll(async () => (await h.call('GET', '/workflow/{id}/status', { params: { id: a.workflowId } })).body.status, { timeout: 15_000 })
        .toBe('completed');
    }
  });

  it('PATCH merges spec fields, replaces the others and checks the result; the list pages', async () => {
    const scheduleId = newId('patched');
    expect(
      (await h.call('POST', '/schedules', { body: { scheduleId, workflowName: 'greet', input: { name: 'a' }, spec: { cron: ['0 6 * * *'] }, paused: true } }))
        .status,
    ).toBe(201);
    const patched = await h.call('PATCH', '/schedules/{scheduleId}', {
      params: { scheduleId },
      body: { input: { name: 'b' }, spec: { timezone: 'Europe/Paris', jitter: '30s' }, overlap: 'buffer_one', catchupWindow: '5m', note: 'moved' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      scheduleId,
      input: { name: 'b' },
      spec: { cron: ['0 6 * * *'], timezone: 'Europe/Paris', jitter: '30s' },
      overlap: 'buffer_one',
      catchupWindow: '5m',
      paused: true,
      note: 'moved',
    });
    // 06:00 in Paris is 05:00 or 04:00 UTC.
    expect(new Date(patched.body.nextActionTimes[0]).getUTCHours()).toBeGreaterThanOrEqual(4);
    expect(new Date(patched.body.nextActionTimes[0]).getUTCHours()).toBeLessThanOrEqual(5);
    const cleared = await h.call('PATCH', '/schedules/{scheduleId}', { params: { scheduleId }, body: { spec: { jitter: null, every: '1h', cron: null } } });
    expect(cleared.body.spec).toEqual({ every: '1h', timezone: 'Europe/Paris' });
    const badPatch = await h.call('PATCH', '/schedules/{scheduleId}', { params: { scheduleId }, body: { input: { name: 3 } } });
    expect(badPatch.status).toBe(400);
    expect((await describeSchedule(scheduleId)).input).toEqual({ name: 'b' });

    await expect
      .poll(
        async () => {
          const all = [];
          let pageToken: string | undefined;
          for (let page = 0; page < 50; page++) {
            const res = await h.call('GET', '/schedules', { query: { limit: 2, ...(pageToken ? { pageToken } : {}) } });
            expect(res.body.schedules.length).toBeLessThanOrEqual(2);
            all.push(...res.body.schedules);
            pageToken = res.body.nextPageToken ?? undefined;
            if (!pageToken) break;
          }
          return all.find((s: { scheduleId: string }) => s.scheduleId === scheduleId);
        },
        { timeout: 15_000 },
      )
      .toMatchObject({ scheduleId, workflowName: 'greet', catalog: h.catalog, paused: true, declared: false });
  });
});

describe('declared schedules', () => {
  it('the catalog lists what the workflow declares, and the engine holds it marked as declared', async () => {
    const catalog = await h.call('GET', '/workflow/catalog');
    expect(catalog.body.workflows.find((w: { name: string }) => w.name === 'greet').schedules).toEqual([
      { id: 'daily', cron: ['0 6 * * *'], timezone: 'Europe/Paris', input: { name: 'declared' } },
    ]);
    const declared = await describeSchedule(`${h.catalog}:greet:daily`);
    expect(declared).toMatchObject({
      workflowName: 'greet',
      catalog: h.catalog,
      spec: { cron: ['0 6 * * *'], timezone: 'Europe/Paris' },
      input: { name: 'declared' },
      overlap: 'skip',
      declared: true,
      paused: false,
    });
  });
});

describe('bad input', () => {
  const base = () => ({ workflowName: 'greet', input: { name: 'x' }, spec: { every: '1h' } });

  it.each([
    ['an invalid cron', { spec: { cron: ['61 * * * *'] } }, ['body', 'spec', 'cron', 0]],
    ['a cron of 4 fields', { spec: { cron: ['* * * *'] } }, ['body', 'spec', 'cron', 0]],
    ['an unknown predefined form', { spec: { cron: ['@sometimes'] } }, ['body', 'spec', 'cron', 0]],
    ['@every below 1 s', { spec: { cron: ['@every 500ms'] } }, ['body', 'spec', 'cron', 0]],
    ['an unknown time zone', { spec: { every: '1h', timezone: 'Mars/Olympus' } }, ['body', 'spec', 'timezone']],
    ['every below 1 s', { spec: { every: '500ms' } }, ['body', 'spec', 'every']],
    ['a spec with neither cron nor every', { spec: { timezone: 'UTC' } }, ['body', 'spec']],
    ['an input the schema refuses', { input: { name: 42 } }, ['body', 'input', 'name']],
    ['a missing input the schema needs', { input: undefined }, ['body', 'input']],
    ['an unknown overlap policy', { overlap: 'sometimes' }, ['body', 'overlap']],
  ])('%s: 400 ValidationError naming the field, nothing created', async (_label, patch, field) => {
    const scheduleId = newId(`bad-${created.length}`);
    const res = await h.call('POST', '/schedules', { body: { ...base(), ...patch, scheduleId } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ValidationError');
    expect(res.body.issues.map((i: { path: unknown[] }) => i.path)).toContainEqual(field);
    expect((await h.call('GET', '/schedules/{scheduleId}', { params: { scheduleId } })).status).toBe(404);
  });

  it('an unknown workflow: 404 UnsupportedWorkflowError; a taken id: 409; an unknown schedule: 404 on every route', async () => {
    const unknown = await h.call('POST', '/schedules', { body: { ...base(), workflowName: 'nope' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('UnsupportedWorkflowError');

    const scheduleId = newId('taken');
    expect((await h.call('POST', '/schedules', { body: { ...base(), scheduleId, paused: true } })).status).toBe(201);
    const again = await h.call('POST', '/schedules', { body: { ...base(), scheduleId } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'ScheduleAlreadyExistsError' });

    const missing = { scheduleId: `${h.catalog}-missing` };
    const replies = await Promise.all([
      h.call('GET', '/schedules/{scheduleId}', { params: missing }),
      h.call('PATCH', '/schedules/{scheduleId}', { params: missing, body: { note: 'x' } }),
      h.call('POST', '/schedules/{scheduleId}/pause', { params: missing }),
      h.call('POST', '/schedules/{scheduleId}/unpause', { params: missing }),
      h.call('POST', '/schedules/{scheduleId}/trigger', { params: missing }),
      h.call('POST', '/schedules/{scheduleId}/backfill', { params: missing, body: { startAt: '2026-01-01T00:00:00Z', endAt: '2026-01-01T00:01:00Z' } }),
      h.call('DELETE', '/schedules/{scheduleId}', { params: missing }),
    ]);
    expect(replies.map((r) => [r.status, r.body.error])).toEqual(Array(7).fill([404, 'ScheduleNotFoundError']));
  });

  it('a reserved or malformed id, a backfill that ends before it starts: 400', async () => {
    expect((await h.call('POST', '/schedules', { body: { ...base(), scheduleId: '$catalog:x' } })).status).toBe(400);
    expect((await h.call('POST', '/schedules', { body: { ...base(), scheduleId: 'a\u0001b' } })).status).toBe(400);
    const scheduleId = newId('backwards');
    expect((await h.call('POST', '/schedules', { body: { ...base(), scheduleId, paused: true } })).status).toBe(201);
    const backwards = await h.call('POST', '/schedules/{scheduleId}/backfill', {
      params: { scheduleId },
      body: { startAt: '2026-01-01T00:01:00Z', endAt: '2026-01-01T00:00:00Z' },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.issues[0].path).toEqual(['body', 'endAt']);
  });

  it('a page token the engine cannot read is a 400 naming pageToken, not a 500', async () => {
    // The request the schema fuzzer found answered 500 before: any well-formed token the engine cannot decode.
    const res = await h.call('GET', '/schedules', { query: { limit: 50, pageToken: '[Filtered]' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ValidationError');
    expect(res.body.issues[0].path).toEqual(['query', 'pageToken']);
  });
});
