import { cp, mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { eventually } from '../support/poll.js';
import { removeProjectDir } from '../support/project-dirs.js';

/**
 * The production shape on one machine with no trace setting at all: a worker started in its project folder, the
 * API started from another folder. The API reads the worker's local traces from the folder the worker advertises,
 * and nothing else. And an S3 destination refusing the worker's credentials costs no run and logs one line.
 */
let base: string;
let project: string;
let weed: SeaweedFs;
let connection: Connection;
let client: Client;
let apiUrl: string;
const procs: CliProcess[] = [];
const stamp = `${process.pid}-${Date.now()}`;
const localCatalog = `split-${stamp}`;
const badCatalog = `badcreds-${stamp}`;
let badWorker: CliProcess;
let api: CliProcess;

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(apiUrl + route, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const traceLog = (r: { workflowId: string; runId: string }) => call('GET', `/workflow/${encodeURIComponent(r.workflowId)}/runs/${r.runId}/trace-log`);

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'skein-split-'));
  // The project in a folder of its own, resolving @skein/* from this repository.
  project = path.join(base, 'project');
  await cp(path.join(repoRoot, 'fixtures/projects/trace-fleet'), project, { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules/@skein'), path.join(project, 'node_modules/@skein'), 'dir');
  weed = await startSeaweedFs();
  const address = inject('temporalAddress');
  connection = await Connection.connect({ address });
  client = new Client({ connection });
  const local = spawnSkein(['worker', '.'], { TEMPORAL_ADDRESS: address, SKEIN_CATALOG: localCatalog }, { cwd: project });
  procs.push(local);
  await local.waitFor(/worker serving/, 90_000);
  badWorker = spawnSkein(
    ['worker', '.'],
    {
      ...weed.env,
      AWS_SECRET_ACCESS_KEY: 'not-the-secret',
      TEMPORAL_ADDRESS: address,
      SKEIN_CATALOG: badCatalog,
      SKEIN_TRACE_DIR: 'off',
      SKEIN_TRACE_SPOOL_DIR: path.join(base, 'spool'),
      SKEIN_LOG_LEVEL: 'debug',
    },
    { cwd: project },
  );
  procs.push(badWorker);
  await badWorker.waitFor(/worker serving/, 90_000);
  const elsewhere = path.join(base, 'elsewhere');
  await mkdir(elsewhere);
  const port = await freePort();
  api = spawnSkein(['api'], { TEMPORAL_ADDRESS: address, SKEIN_CATALOG: localCatalog, PORT: String(port) }, { cwd: elsewhere });
  procs.push(api);
  await api.waitFor(/listening/i, 30_000);
  apiUrl = `http://127.0.0.1:${port}`;
}, 240_000);

afterAll(async () => {
  for (const p of procs) {
    if (p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }
  await connection?.close();
  await weed?.close();
  if (base) await removeProjectDir(base);
});

describe('split topology on one machine, no setting', () => {
  it("reads the worker's local trace, from the folder the worker advertises", async () => {
    const res = await call('POST', '/workflow/run', { workflowName: 'fleet', input: { n: 1 } });
    expect(res.body.status).toBe('completed');
    const local = res.body.trace.destinations.local as string;
    expect(res.body.trace.destinations).toEqual({ local });
    expect(local.startsWith(path.join(project, '.skein', 'traces') + path.sep)).toBe(true);
    const log = await eventually(async () => {
      const answer = await traceLog(res.body);
      return answer.status === 200 ? answer : undefined;
    }, 15_000);
    expect(log.body).toMatchObject({ source: 'local', location: local, data: { root: { workflowId: res.body.workflowId, runId: res.body.runId } } });
    expect(log.body.data.tree.children.map((c: any) => c.name)).toEqual(['prepare', 'judge', 'stamp', 'summary']);

    // A run whose memo names that (existing, advertised) file is refused: only its own trace file is read.
    const forged = await client.workflow.start('fleet', {
      taskQueue: localCatalog,
      workflowId: `forged-${stamp}`,
      args: [{ n: 2 }],
      memo: { skeinTrace: { local } },
    });
    await forged.terminate('forged');
    const refused = await traceLog({ workflowId: forged.workflowId, runId: forged.firstExecutionRunId });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('NotFoundError');
  }, 60_000);
});

describe('object storage refusing the credentials', () => {
  it('costs no run, logs one line per run with the reason, and does not retry', async () => {
    const res = await call('POST', '/workflow/run', { workflowName: 'fleet', catalog: badCatalog, input: { n: 3 } });
    expect(res.body.status).toBe('completed');
    expect(res.body.trace.destinations).toEqual({ remote: expect.stringContaining(`${weed.endpoint}/${weed.bucket}/fleet/`) });
    const givenUp = () =>
      badWorker
        .stdout()
        .split('\n')
        .filter((l) => l.includes('trace upload given up'));
    await badWorker.waitFor(/trace upload given up/, 20_000);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(givenUp()).toHaveLength(1);
    const line = JSON.parse(givenUp()[0]!);
    expect(line).toMatchObject({ level: 50, workflowId: res.body.workflowId, runId: res.body.runId, bucket: weed.bucket });
    expect(line.reason).toMatch(/HTTP 403/);
    expect(badWorker.stdout()).not.toContain('retrying later');
    // The API, reading no S3 destination itself, answers 404 for that run's trace and logs why.
    const log = await traceLog(res.body);
    expect(log.status).toBe(404);
    await api.waitFor(new RegExp(`"runId":"${res.body.runId}".*trace-log: no readable trace`), 5_000);
    const why = api
      .output()
      .split('\n')
      .find((l) => l.includes('trace-log: no readable trace') && l.includes(res.body.runId))!;
    expect(JSON.parse(why).failures).toEqual([`remote ${res.body.trace.destinations.remote}: no S3 destination is configured (SKEIN_TRACE_S3_BUCKET)`]);
  }, 60_000);
});

describe('an S3 destination without a region', () => {
  it('refuses to start the worker, saying what to set', async () => {
    const w = spawnSkein(
      ['worker', '.'],
      {
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        SKEIN_CATALOG: `noregion-${stamp}`,
        SKEIN_TRACE_S3_BUCKET: 'traces',
        AWS_REGION: '',
        AWS_DEFAULT_REGION: '',
        AWS_CONFIG_FILE: path.join(base, 'no-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(base, 'no-aws-credentials'),
      },
      { cwd: project },
    );
    expect(await w.exited).toBe(1);
    expect(w.output()).toContain('SKEIN_TRACE_S3_BUCKET is set (traces) but the AWS SDK finds no region: set AWS_REGION');
  }, 60_000);
});
