/**
 * A new build's worker makes itself the current version, against a real Temporal dev server: build 1 of a project
 * serves a catalog; the engine describes the task queue (workflow and activity tasks) its workers poll, which is the
 * catalog's alone. The worker stops, one code file of the project changes (build 2: the same bundle, another build
 * ID, as after a developer's edit), and build 2's worker makes itself current without the engine's own check that
 * it polls every task queue of build 1 (it polls the same catalog); its runs complete.
 */
import { cp, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import protoModule from '@temporalio/proto';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { describeDeployment, describeVersion, pollsOnly } from '@skein/worker/deployment';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

const { TaskQueueType } = protoModule.temporal.api.enums.v1;
const catalog = `promotion-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

let dir: string;
let connection: Connection;
let client: Client;
const workers: SkeinWorker[] = [];

/** A worker of the project as it is now, on the test's catalog; stopped after the tests. */
async function start(): Promise<SkeinWorker> {
  const logger = pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' });
  const worker = await startWorker({ projectDir: dir, catalog, engine: { address: inject('temporalAddress'), namespace: 'default' }, logger, traceDir: false });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-promotion-'));
  await cp(path.join(repoRoot, 'fixtures/projects/schedules'), dir, { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
});

afterAll(async () => {
  for (const w of workers.reverse()) await w.shutdown().catch(() => {});
  await connection?.close();
  if (dir) await removeProjectDir(dir);
});

describe("a new build's promotion", () => {
  it("needs no task-queue check by the engine when the current version polls only the build's catalog", async () => {
    const v1 = await start();
    // A first start bundles: the start says how many modules webpack built, of how many.
    expect(v1.startup.bundleCache).toBe('miss');
    expect(v1.startup.bundledModules?.total).toBeGreaterThan(100);
    expect(v1.startup.bundledModules?.built).toBeGreaterThan(0);
    const first = await describeVersion(client, v1.deployment);
    expect(first?.taskQueues).toEqual(
      expect.arrayContaining([
        { name: catalog, type: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW },
        { name: catalog, type: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY },
      ]),
    );
    expect(pollsOnly(first, catalog)).toBe(true);
    expect(pollsOnly(first, `${catalog}-other`)).toBe(false);
    expect(await describeVersion(client, { name: catalog, buildId: 'never-polled' })).toBeUndefined();

    await v1.shutdown();
    await writeFile(path.join(dir, 'greeting.js'), 'export const greeting = (name) => `hello ${name}`;\n');
    const v2 = await start();
    expect(v2.deployment.buildId).not.toBe(v1.deployment.buildId);
    // The edit is in a step's module, which the bundle holds only as a stub: the bundle is the cached one.
    expect(v2.startup.bundleCache).toBe('hit');
    expect(v2.startup.bundledModules).toBeNull();
    expect(v2.startup.promoteMs).not.toBeNull();
    expect((await describeDeployment(client, catalog))?.current).toBe(v2.deployment.buildId);
    const result = await client.workflow.execute('greet', { taskQueue: catalog, workflowId: `${catalog}-run`, args: [{ name: 'ada' }] });
    expect(result).toBe('hello ada');
  });
});
