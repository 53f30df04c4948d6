/**
 * `--exit-when-drained` against a real dev server: a worker of an old build keeps serving while a run pinned to its
 * build is open after a rollout, and stops by itself once Temporal reports the build drained. The file starts its
 * own dev server, told to re-check drainage every second (Temporal's default is minutes).
 */
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

const logger = pino({ level: 'silent' });
let server: DevServer;
let dir: string;
let connection: Connection;
let client: Client;
const workers: SkeinWorker[] = [];
const catalog = `drain_${Date.now()}`;

beforeAll(async () => {
  const temporal = await locateTemporal({ install: true });
  server = await startDevServer({
    binary: temporal.path,
    onOutput: () => {},
    dynamicConfig: {
      'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '"1s"',
      'matching.wv.VersionDrainageStatusRefreshInterval': '"1s"',
    },
  });
  dir = await mkdtemp(path.join(tmpdir(), 'skein-drain-'));
  for (const version of ['v1', 'v2']) {
    await cp(path.join(repoRoot, 'fixtures/projects/rollout', version), path.join(dir, version), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, version, 'node_modules'), 'dir');
  }
  connection = await Connection.connect({ address: server.address });
  client = new Client({ connection });
}, 120_000);

afterAll(async () => {
  for (const w of workers) await w.shutdown();
  await connection?.close();
  await server?.stop();
  await removeProjectDir(dir);
});

describe('skein worker --exit-when-drained', () => {
  it('serves its pinned run after a rollout, then stops once its build is drained', async () => {
    const start = (version: string, exitWhenDrained: boolean) =>
      startWorker({ projectDir: path.join(dir, version), catalog, engine: { address: server.address }, logger, traceDir: false, exitWhenDrained });
    const v1 = await start('v1', true);
    workers.push(v1);
    let v1Stopped = false;
    void v1.done.then(() => (v1Stopped = true));
    const handle = await client.workflow.start('approval', { taskQueue: catalog, workflowId: `${catalog}-a`, args: [{ request: 'x' }] });
    await expect.poll(() => client.withDeadline(Date.now() + 5_000, () => handle.query<string>('state')), { timeout: 20_000 }).toBe('waiting');

    const v2 = await start('v2', false);
    workers.push(v2);
    const described = await client.workflowService.describeWorkerDeployment({ namespace: 'default', deploymentName: catalog });
    expect(described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId).toBe(v2.deployment.buildId);
    // The pinned run keeps the old build draining: its worker stays.
    await new Promise((r) => setTimeout(r, 8_000));
    expect(v1Stopped).toBe(false);

    await handle.signal('decide', { approved: true });
    expect(await handle.result()).toMatchObject({ workflowCode: 'v1', stepCode: 'v1', approved: true });
    const closedAt = Date.now();
    await expect.poll(() => v1Stopped, { timeout: 60_000, interval: 500 }).toBe(true);
    expect(Date.now() - closedAt).toBeLessThan(60_000);
  }, 150_000);
});
