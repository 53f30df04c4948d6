/**
 * Declared schedules follow the current build, on a real Temporal dev server: build 1 of a project declares
 * `greet`'s `daily` schedule, build 2 declares `hourly` instead. Each build's schedules appear when it becomes the
 * current version (a worker promoting its new build, and `deploy rollback`'s promote + publish) and the other build's
 * disappear; a schedule created through the API on the same catalog is never touched, and a re-sync keeps an
 * operator's pause.
 */
import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { publishCurrentCatalog, setCurrentVersion, syncDeclaredSchedules } from '@skein/worker/deployment';
import { removeProjectDir } from '../support/project-dirs.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const catalog = `declared-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const daily = `${catalog}:greet:daily`;
const hourly = `${catalog}:greet:hourly`;
const byApi = `${catalog}-by-api`;

let dir: string;
let connection: Connection;
let client: Client;
const workers: SkeinWorker[] = [];

/** The schedule's memo and state, or null when it does not exist. */
async function scheduleState(id: string) {
  try {
    const d = await client.schedule.getHandle(id).describe();
    return { memo: d.memo, paused: d.state.paused, workflowType: d.action.workflowType, taskQueue: d.action.taskQueue, timezone: d.spec.timezone };
  } catch (err) {
    if ((err as Error).name === 'ScheduleNotFoundError') return null;
    throw err;
  }
}

async function start(version: string): Promise<SkeinWorker> {
  const worker = await startWorker({
    projectDir: path.join(dir, version),
    catalog,
    engine: { address: inject('temporalAddress'), namespace: 'default' },
    logger: pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' }),
    traceDir: false,
  });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-declared-'));
  const fixture = path.join(repoRoot, 'fixtures/projects/schedules');
  for (const version of ['v1', 'v2']) {
    await cp(fixture, path.join(dir, version), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, version, 'node_modules'), 'dir');
  }
  const file = path.join(dir, 'v2/greet/workflow.js');
  const v1Text = await readFile(file, 'utf8');
  const v2Text = v1Text.replace(/schedules: \[.*\],/, "schedules: [{ id: 'hourly', every: '1h', input: { name: 'hourly' } }],");
  expect(v2Text).not.toBe(v1Text);
  await writeFile(file, v2Text);
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const w of workers.reverse()) await w.shutdown().catch(() => {});
  for (const id of [daily, hourly, byApi])
    await client?.schedule
      .getHandle(id)
      .delete()
      .catch(() => {});
  await connection?.close();
  if (dir) await removeProjectDir(dir);
});

describe('declared schedules', () => {
  it('appear when their build becomes current and disappear when a build without them does; API schedules stay', async () => {
    const v1 = await start('v1');
    // The first build of a new catalog's deployment made itself current: the start reports the engine's time for it.
    expect(v1.startup.promoteMs).toBeGreaterThanOrEqual(0);
    expect(await scheduleState(daily)).toMatchObject({
      memo: { skeinDeclared: { catalog, workflowName: 'greet', id: 'daily' } },
      paused: false,
      workflowType: 'greet',
      taskQueue: catalog,
      timezone: 'Europe/Paris',
    });
    expect(await scheduleState(hourly)).toBeNull();

    // An API schedule of the same catalog and workflow: never the sync's business.
    await client.schedule.create({
      scheduleId: byApi,
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'greet', taskQueue: catalog, args: [{ name: 'api' }] },
      state: { paused: true },
    });

    // Build 2 starts, is new, makes itself current: its schedule appears, build 1's goes.
    const v2 = await start('v2');
    expect(v2.deployment.buildId).not.toBe(v1.deployment.buildId);
    expect(v2.startup.promoteMs).toBeGreaterThanOrEqual(0);
    expect(v2.startup.promoteMs!).toBeLessThanOrEqual(v2.startup.connectMs);
    expect(await scheduleState(hourly)).toMatchObject({ memo: { skeinDeclared: { id: 'hourly' } } });
    await expect.poll(() => scheduleState(daily), { timeout: 20_000 }).toBeNull();
    expect(await scheduleState(byApi)).toMatchObject({ paused: true, workflowType: 'greet' });

    // Rolling back (what `skein deploy rollback` does: make build 1 current, publish its catalog) brings `daily` back.
    await setCurrentVersion(client, catalog, v1.deployment.buildId, 'declared-schedules-test');
    expect(await publishCurrentCatalog(client, catalog, v1.deployment.buildId)).toBe(true);
    expect(await scheduleState(daily)).toMatchObject({ memo: { skeinDeclared: { id: 'daily' } } });
    await expect.poll(() => scheduleState(hourly), { timeout: 20_000 }).toBeNull();
    expect(await scheduleState(byApi)).not.toBeNull();
  }, 240_000); // two worker starts, each validating and bundling a project, on a shared machine

  it('a re-sync rewrites a declared schedule but keeps an operator pause, and leaves an undeclared one of the same id alone', async () => {
    const v1 = workers[0]!;
    await client.schedule.getHandle(daily).pause('incident');
    const again = await syncDeclaredSchedules(client, v1.catalogDocument);
    expect(again).toMatchObject({ created: [], updated: [daily] });
    expect(await scheduleState(daily)).toMatchObject({ paused: true });

    // A schedule created by hand under the declared id of another workflow's schedule is reported, not touched.
    const doc = { catalog, workflows: [{ name: 'greet', schedules: [{ id: 'by-api', every: '2h', input: null }] }] };
    await client.schedule.create({
      scheduleId: `${catalog}:greet:by-api`,
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'greet', taskQueue: catalog, args: [{ name: 'hand' }] },
      state: { paused: true },
    });
    try {
      const report = await syncDeclaredSchedules(client, doc);
      expect(report.kept).toEqual([`${catalog}:greet:by-api`]);
      const d = await client.schedule.getHandle(`${catalog}:greet:by-api`).describe();
      expect(d.spec.intervals?.map((i) => i.every)).toEqual([3_600_000]);
    } finally {
      await client.schedule.getHandle(`${catalog}:greet:by-api`).delete();
    }
  });
});
