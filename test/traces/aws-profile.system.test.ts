import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { eventually } from '../support/poll.js';

/**
 * The S3 trace destination set up only through AWS shared config profiles, on a real SeaweedFS: the worker's
 * profile names the store in `endpoint_url`, the API's in a `services` section; credentials and region come from
 * the profiles too. No AWS environment setting is given. The worker uploads the trace path-style to that endpoint
 * and the API reads it back from there.
 */
const FIXTURE = path.join(repoRoot, 'fixtures/projects/trace-fleet');
const AWS_VARS = [
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_ENDPOINT_URL',
  'AWS_ENDPOINT_URL_S3',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
];
const AWS_KEYS = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'];

let weed: SeaweedFs;
let base: string;
let worker: CliProcess;
let api: CliProcess;
let apiUrl: string;
const saved: Record<string, string | undefined> = {};
const catalog = `profile-${process.pid}-${Date.now()}`;

beforeAll(async () => {
  weed = await startSeaweedFs();
  // The spawned processes inherit this process's environment: no AWS setting may reach them but the profile's.
  for (const k of [...AWS_VARS, ...AWS_KEYS]) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
  base = await mkdtemp(path.join(tmpdir(), 'skein-profile-'));
  const config = path.join(base, 'aws-config');
  const credentials = path.join(base, 'aws-credentials');
  await writeFile(
    config,
    [
      '[profile writer]',
      'region = us-east-1',
      `endpoint_url = ${weed.endpoint}`,
      '',
      '[profile reader]',
      'region = us-east-1',
      'services = store',
      '',
      '[services store]',
      's3 =',
      `  endpoint_url = ${weed.endpoint}`,
      '',
    ].join('\n'),
  );
  const keys = [`aws_access_key_id = ${weed.accessKeyId}`, `aws_secret_access_key = ${weed.secretAccessKey}`];
  await writeFile(credentials, ['[writer]', ...keys, '', '[reader]', ...keys, ''].join('\n'));
  const common = {
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    SKEIN_CATALOG: catalog,
    SKEIN_TRACE_S3_BUCKET: weed.bucket,
    SKEIN_TRACE_S3_PREFIX: 'profiles/',
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: credentials,
  };
  worker = spawnSkein(['worker', FIXTURE], {
    ...common,
    AWS_PROFILE: 'writer',
    SKEIN_TRACE_DIR: path.join(base, 'traces'),
    SKEIN_TRACE_SPOOL_DIR: path.join(base, 'spool'),
    SKEIN_BUNDLE_CACHE: path.join(base, 'bundles'),
    SKEIN_STARTUP_CACHE: path.join(base, 'startup'),
  });
  await worker.waitFor(/worker serving/, 90_000);
  const apiFolder = path.join(base, 'elsewhere');
  await mkdir(apiFolder);
  const port = await freePort();
  api = spawnSkein(['api'], { ...common, AWS_PROFILE: 'reader', PORT: String(port) }, { cwd: apiFolder });
  await api.waitFor(/listening/i, 30_000);
  apiUrl = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  for (const p of [worker, api]) {
    if (p && p.child.exitCode === null) {
      p.child.kill('SIGTERM');
      await p.exited;
    }
  }
  for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  await weed?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('an S3 trace destination set up through AWS profiles', () => {
  it('is uploaded path-style to the profile’s endpoint and read back by an API whose profile names it in a services section', async () => {
    const res = await fetch(`${apiUrl}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'flaky', input: { doom: false } }),
    }).then((r) => r.json() as Promise<any>);
    expect(res.status).toBe('completed');
    // The memo names the object at the endpoint, path-style.
    expect(res.trace.destinations.remote).toMatch(
      new RegExp(`^${weed.endpoint}/${weed.bucket}/profiles/flaky/\\d{4}/\\d{2}/\\d{2}/\\d+_${res.workflowId}\\.json$`),
    );
    let last: unknown;
    const log: any = await eventually(
      async () => {
        const r = await fetch(`${apiUrl}/workflow/${encodeURIComponent(res.workflowId)}/runs/${res.runId}/trace-log`);
        last = await r.json();
        return r.status === 200 && (last as any).source === 'remote' ? last : undefined;
      },
      30_000,
      200,
    ).catch((err: Error) => {
      throw new Error(`no remote trace in time (${err.message}): ${JSON.stringify(last)}\n${worker.output()}\n${api.output()}`);
    });
    expect(log).toMatchObject({ source: 'remote', location: res.trace.destinations.remote, data: { root: { workflowId: res.workflowId, runId: res.runId } } });
    expect(log.data.tree.children).toMatchObject([{ name: 'shaky', status: 'completed', attempt: 3, retries: [{ attempt: 1 }, { attempt: 2 }] }]);
  }, 60_000);
});
