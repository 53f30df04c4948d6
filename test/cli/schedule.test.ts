/**
 * `skein schedule …` against a real API and engine (a worker serving fixtures/projects/schedules): every
 * subcommand, human and `--json` output, and its exit codes (2 usage, 3 API error naming the field).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../api/support.js';
import { skein } from './client-support.js';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/projects/schedules');

let h: Harness;
let id: string;
const sk = (args: string[]) => skein(h.url, args);

beforeAll(async () => {
  h = await startHarness({}, { projectDir: PROJECT });
  id = `${h.catalog}-cli`;
});

afterAll(async () => {
  for (const s of [id, `${h?.catalog}:greet:daily`])
    await h?.client.schedule
      .getHandle(s)
      .delete()
      .catch(() => {});
  await h?.close();
});

describe('skein schedule', () => {
  it('creates, lists, describes, changes, pauses, triggers, backfills and deletes a schedule', async () => {
    const create = await sk([
      'schedule',
      'create',
      '--workflow',
      'greet',
      '--id',
      id,
      '--cron',
      '0 6 * * *',
      '--timezone',
      'Europe/Paris',
      '--input',
      '{"name":"cli"}',
      '--paused',
      '--note',
      'from the CLI',
      '--json',
    ]);
    expect(create).toEqual({ code: 0, stdout: `${JSON.stringify({ scheduleId: id })}\n`, stderr: '' });

    const describe = await sk(['schedule', 'describe', id]);
    expect(describe.code).toBe(0);
    expect(describe.stdout).toContain(`schedule ${id}  paused`);
    expect(describe.stdout).toMatch(/workflow\s+greet on /);
    expect(describe.stdout).toMatch(/when\s+cron 0 6 \* \* \*, in Europe\/Paris/);
    expect(describe.stdout).toContain('"name": "cli"');

    const update = await sk(['schedule', 'update', id, '--every', '1h', '--overlap', 'buffer_one', '--json']);
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({
      spec: { cron: ['0 6 * * *'], every: '1h', timezone: 'Europe/Paris' },
      overlap: 'buffer_one',
      paused: true,
    });

    // The list reads the engine's visibility store, which catches up within moments.
    await vi.waitFor(
      async () => {
        const listed = JSON.parse((await sk(['schedule', 'list', '--all', '--limit', '5', '--json'])).stdout) as { schedules: Array<{ scheduleId: string }> };
        expect(listed.schedules.find((s) => s.scheduleId === id)).toMatchObject({ paused: true, workflowName: 'greet', declared: false });
      },
      { timeout: 15_000, interval: 250 },
    );

    const trigger = await sk(['schedule', 'trigger', id]);
    expect(trigger).toEqual({ code: 0, stdout: `schedule ${id}: run requested\n`, stderr: '' });
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const backfill = await sk([
      'schedule',
      'backfill',
      id,
      '--start-at',
      new Date(minute - 3_601_000).toISOString(),
      '--end-at',
      new Date(minute - 1_000).toISOString(),
      '--json',
    ]);
    expect(backfill).toMatchObject({ code: 0, stdout: `${JSON.stringify({ scheduleId: id })}\n` });

    // The triggered run and the one hourly due time of the backfilled hour (the engine's range excludes its start) both ran.
    await expect.poll(async () => JSON.parse((await sk(['schedule', 'describe', id, '--json'])).stdout).recentActions.length, { timeout: 20_000 }).toBe(2);

    const unpause = await sk(['schedule', 'unpause', id, '--note', 'back']);
    expect(unpause).toEqual({ code: 0, stdout: `schedule ${id} unpaused  back\n`, stderr: '' });
    const pause = await sk(['schedule', 'pause', id, '--json']);
    expect(JSON.parse(pause.stdout)).toEqual({ scheduleId: id, paused: true, note: 'Paused through the Skein API' });

    const del = await sk(['schedule', 'delete', id]);
    expect(del).toEqual({ code: 0, stdout: `schedule ${id} deleted\n`, stderr: '' });
    const gone = await sk(['schedule', 'describe', id]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/^error: ScheduleNotFoundError: /);
  });

  it('exits 3 naming the field the API refuses, 2 for a usage error', async () => {
    const bad = await sk(['schedule', 'create', '--workflow', 'greet', '--cron', '61 * * * *', '--input', '{"name":"x"}']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^error: ValidationError: /);
    expect(bad.stderr).toContain('  - body.spec.cron.0: Invalid cron expression "61 * * * *"');
    const badInput = await sk(['schedule', 'create', '--workflow', 'greet', '--every', '1h', '--input', '{"name":1}']);
    expect(badInput.code).toBe(3);
    expect(badInput.stderr).toContain('  - body.input.name: ');
    expect((await sk(['schedule', 'create', '--workflow', 'greet', '--every', '1h', '--input', '{nope'])).code).toBe(2);
    expect((await sk(['schedule', 'update', id])).stderr).toBe('error: nothing to change: give at least one option\n');
  });
});
