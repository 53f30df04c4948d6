import { cp, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { repoRoot } from '../support/stack.js';
import { eventually } from '../support/poll.js';
import { removeProjectDir } from '../support/project-dirs.js';

/**
 * A build carries the S3 trace destination of the settings it was made with: a worker serving it uploads each
 * run's trace there, and a worker whose settings name another destination (or none) refuses the build in one line.
 */
let base: string;
let project: string;
let buildDir: string;
let weed: SeaweedFs;
const prefix = 'built/';

async function skein(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnSkein(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'skein-build-traces-'));
  project = path.join(base, 'project');
  await cp(path.join(repoRoot, 'fixtures/projects/trace-fleet'), project, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
  await symlink(path.join(repoRoot, 'node_modules/@skein'), path.join(project, 'node_modules/@skein'), 'dir');
  weed = await startSeaweedFs();
  buildDir = path.join(base, 'build');
  const res = await skein(['build', project, '--out', buildDir], { ...weed.env, SKEIN_TRACE_S3_PREFIX: prefix });
  expect(res.code, res.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await weed?.close();
  if (base) await removeProjectDir(base);
});

describe('a build with an S3 trace destination', () => {
  it('records the destination in skein-build.json', async () => {
    const record = JSON.parse(await readFile(path.join(buildDir, 'skein-build.json'), 'utf8'));
    expect(record.traceRemote).toEqual({ bucket: weed.bucket, prefix, region: 'us-east-1', endpoint: weed.endpoint });
  });

  it('is served by a worker with the same settings, which uploads each run’s trace to S3', async () => {
    const catalog = `built-s3-${process.pid}-${Date.now()}`;
    const address = inject('temporalAddress');
    let worker: CliProcess | undefined;
    let api: ApiServer | undefined;
    const s3 = new S3Client({
      endpoint: weed.endpoint,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: weed.accessKeyId, secretAccessKey: weed.secretAccessKey },
    });
    try {
      worker = spawnSkein(['worker', buildDir], {
        ...weed.env,
        SKEIN_TRACE_S3_PREFIX: prefix,
        SKEIN_TRACE_SPOOL_DIR: path.join(base, 'spool'),
        TEMPORAL_ADDRESS: address,
        SKEIN_CATALOG: catalog,
      });
      await worker.waitFor(/worker serving \d+ workflow/, 60_000);
      expect(worker.stdout()).not.toMatch(/record local traces only/);
      api = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), {
        logger: pino({ level: 'silent' }),
      });
      const url = (await api.listen()).url;
      const run = () =>
        fetch(`${url}/workflow/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ workflowName: 'fleet', input: { n: 1 } }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      // The API accepts runs once the build is the catalog's current version (a moment after "serving").
      const res = await eventually(
        async () => {
          const answer = await run();
          return answer.status === 404 ? undefined : answer;
        },
        30_000,
        300,
      );
      expect(res.body.status, JSON.stringify(res.body)).toBe('completed');
      const remote = res.body.trace.destinations.remote as string;
      expect(remote.startsWith(`${weed.endpoint}/${weed.bucket}/${prefix}fleet/`)).toBe(true);
      const key = decodeURIComponent(remote.slice(`${weed.endpoint}/${weed.bucket}/`.length));
      const trace: any = await eventually(
        () => s3.send(new GetObjectCommand({ Bucket: weed.bucket, Key: key })).then(async (o) => JSON.parse(await o.Body!.transformToString())),
        20_000,
        200,
      );
      expect(trace).toMatchObject({ root: { workflowId: res.body.workflowId, runId: res.body.runId } });
      expect(trace.tree.children.map((c: any) => c.name)).toEqual(['prepare', 'judge', 'stamp', 'summary']);
    } finally {
      await api?.close();
      if (worker && worker.child.exitCode === null) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      s3.destroy();
    }
  }, 90_000);

  it.each([
    ['no S3 destination', { SKEIN_TRACE_S3_BUCKET: '' }, /give none/],
    ['another prefix', { SKEIN_TRACE_S3_PREFIX: 'elsewhere/' }, /give s3:\/\/[^/]+\/elsewhere\//],
  ])('is refused in one line by a worker whose settings name %s', async (_label, change, message) => {
    const res = await skein(['worker', buildDir], { ...weed.env, SKEIN_TRACE_S3_PREFIX: prefix, ...change, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/the build's S3 trace destination is s3:\/\/.+\/built\//);
    expect(res.stderr).toMatch(message);
  });
});
