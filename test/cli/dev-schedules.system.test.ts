/**
 * `skein dev` keeps declared schedules in line with the code on every reload: started on a copy of
 * fixtures/projects/schedules (on the shared engine, its own catalog), it creates `greet`'s `daily` schedule; an edit
 * that replaces it with `morning` makes the next reload create `morning` and delete `daily`. System tier: it runs
 * `skein dev` (an API and a worker process of its own).
 */
import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

const catalog = `dev-schedules-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
let dir: string;
let dev: CliProcess | undefined;
let connection: Connection;
let client: Client;

/** The cron entries of a schedule as written (null when it does not exist). */
async function cronOf(scheduleId: string): Promise<string[] | null> {
  try {
    const d = await client.schedule.getHandle(scheduleId).describe();
    return (d.action.memo?.skeinScheduleTimes as { cron?: string[] } | undefined)?.cron ?? [];
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-dev-schedules-'));
  await cp(path.join(repoRoot, 'fixtures/projects/schedules'), dir, { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
  dev = spawnSkein(['dev', dir, '--temporal-address', inject('temporalAddress'), '--port', String(await freePort())], {
    SKEIN_CATALOG: catalog,
    SKEIN_METRICS_PORT: String(await freePort()),
  });
  await dev.waitFor(/Skein is up/, 180_000);
  await dev.waitFor(/watching the project/, 60_000); // an edit before the watcher's first scan is done goes unseen
}, 240_000);

afterAll(async () => {
  if (dev && dev.child.exitCode === null) {
    dev.child.kill('SIGINT');
    await dev.exited;
  }
  for (const id of ['daily', 'morning'])
    await client?.schedule
      .getHandle(`${catalog}:greet:${id}`)
      .delete()
      .catch(() => {});
  await connection?.close();
  if (dir) await removeProjectDir(dir);
});

describe('skein dev and declared schedules', () => {
  it('creates them at start and follows each reload', async () => {
    await expect.poll(() => cronOf(`${catalog}:greet:daily`), { timeout: 20_000 }).toEqual(['0 6 * * *']);

    const file = path.join(dir, 'greet/workflow.js');
    const text = await readFile(file, 'utf8');
    const edited = text.replace("{ id: 'daily', cron: '0 6 * * *',", "{ id: 'morning', cron: ['0 7 * * *', '@every 2h'],");
    expect(edited).not.toBe(text);
    await writeFile(file, edited);
    await dev!.waitFor(/reloaded in/, 120_000);

    await expect.poll(() => cronOf(`${catalog}:greet:morning`), { timeout: 20_000 }).toEqual(['0 7 * * *', '@every 2h']);
    await expect.poll(() => cronOf(`${catalog}:greet:daily`), { timeout: 20_000 }).toBeNull();
  }, 180_000);
});
