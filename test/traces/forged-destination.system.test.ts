import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { repoRoot } from '../support/stack.js';

/**
 * A forged S3 trace destination writes nothing, on a real SeaweedFS and a real `skein worker`: a namespace client
 * starts a root run under the id of a closed run and hands it that run's object as its trace destination (in its
 * arguments, as a parent hands its root's destinations to a child). The root run derives its own object from its
 * type, id and start instead, so the other run's object keeps its trace. (Before, a root run took destinations from
 * its arguments and the uploader checked only the `_<workflow id>.json` suffix: the object was overwritten.)
 */
const prefix = 'forged/';
const catalog = `forged-s3-${process.pid}-${Date.now()}`;
let base: string;
let weed: SeaweedFs;
let worker: CliProcess;
let api: ApiServer;
let url: string;
let connection: Connection;
let client: Client;
let s3: S3Client;

/** The key of a destination URL (path-style under the SeaweedFS endpoint). */
const keyOf = (remote: string) => decodeURIComponent(remote.slice(`${weed.endpoint}/${weed.bucket}/`.length));

async function object(key: string): Promise<{ etag: string; root: { workflowId: string; runId: string } } | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: weed.bucket, Key: key }));
    const body = await (await s3.send(new GetObjectCommand({ Bucket: weed.bucket, Key: key }))).Body!.transformToString();
    return { etag: head.ETag ?? '', root: (JSON.parse(body) as { root: { workflowId: string; runId: string } }).root };
  } catch (err) {
    if ((err as { name?: string }).name === 'NotFound' || (err as { name?: string }).name === 'NoSuchKey') return undefined;
    throw err;
  }
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'skein-forged-s3-'));
  const project = path.join(base, 'project');
  await cp(path.join(repoRoot, 'fixtures/projects/trace-fleet'), project, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
  await symlink(path.join(repoRoot, 'node_modules/@skein'), path.join(project, 'node_modules/@skein'), 'dir');
  weed = await startSeaweedFs();
  const address = inject('temporalAddress');
  worker = spawnSkein(['worker', project], {
    ...weed.env,
    SKEIN_TRACE_S3_PREFIX: prefix,
    SKEIN_TRACE_SPOOL_DIR: path.join(base, 'spool'),
    TEMPORAL_ADDRESS: address,
    SKEIN_CATALOG: catalog,
  });
  await worker.waitFor(/worker serving \d+ workflow/, 90_000);
  api = await createApiServer(loadApiConfig({ TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), {
    logger: (await import('pino')).pino({ level: 'silent' }),
  });
  url = (await api.listen()).url;
  connection = await Connection.connect({ address });
  client = new Client({ connection, namespace: 'default' });
  s3 = new S3Client({
    endpoint: weed.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: weed.accessKeyId, secretAccessKey: weed.secretAccessKey },
  });
}, 180_000);

afterAll(async () => {
  await api?.close();
  worker?.child.kill('SIGTERM');
  await worker?.exited;
  await connection?.close();
  await weed?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

describe('a forged S3 trace destination', () => {
  it("does not overwrite another run's object, even one of the same workflow id", async () => {
    const workflowId = `victim-${Date.now()}`;
    // The victim: a normal run, once the worker's build serves the catalog; its trace lands in its own object.
    await expect.poll(async () => (await fetch(`${url}/workflow/catalog/${catalog}`)).status, { timeout: 30_000, interval: 500 }).toBe(200);
    const res = await fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'fleet', workflowId, input: { n: 1 } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe('completed');
    const first = await client.workflow.getHandle(workflowId).describe();
    const victimRemote = (first.memo?.skeinTrace as { remote: string }).remote;
    const victimKey = keyOf(victimRemote);
    await expect.poll(async () => (await object(victimKey))?.root.runId, { timeout: 30_000, interval: 300 }).toBe(first.runId);
    const before = (await object(victimKey))!;

    // The forger: a root run of the same id, handed the victim's object as its destination.
    const forged = await client.workflow.start('fleet', {
      taskQueue: catalog,
      workflowId,
      args: [{ n: 2 }, { traceDestinations: { remote: victimRemote } }],
    });
    await forged.result();
    const described = await forged.describe();
    const ownRemote = (described.memo?.skeinTrace as { remote: string }).remote;
    expect(ownRemote).not.toBe(victimRemote);
    expect(ownRemote.endsWith(`/${described.startTime.getTime()}_${workflowId}.json`)).toBe(true);
    // Its trace is delivered, to its own object only ...
    await expect.poll(async () => (await object(keyOf(ownRemote)))?.root.runId, { timeout: 30_000, interval: 300 }).toBe(forged.firstExecutionRunId);
    // ... and the victim's object still holds the victim's trace, untouched.
    const after = (await object(victimKey))!;
    expect(after.root.runId).toBe(first.runId);
    expect(after.etag).toBe(before.etag);
  });

  it("a reset run's trace goes to an object of its own: the run it was reset from keeps its trace", async () => {
    const workflowId = `reset-${Date.now()}`;
    await expect.poll(async () => (await fetch(`${url}/workflow/catalog/${catalog}`)).status, { timeout: 30_000, interval: 500 }).toBe(200);
    const res = await fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'wobble', workflowId, input: 'k' }),
    });
    const original = (await res.json()) as { runId: string; trace: { destinations: { remote: string } } };
    const originalKey = keyOf(original.trace.destinations.remote);
    await expect.poll(async () => (await object(originalKey))?.root.runId, { timeout: 30_000, interval: 300 }).toBe(original.runId);
    const before = (await object(originalKey))!;

    const reset = await fetch(`${url}/workflow/${workflowId}/runs/${original.runId}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stepName: 'wobbly' }),
    });
    const resetRunId = ((await reset.json()) as { runId: string }).runId;
    await client.workflow.getHandle(workflowId, resetRunId).result();
    const result = (await (await fetch(`${url}/workflow/${workflowId}/runs/${resetRunId}/result`)).json()) as { trace: { destinations: { remote: string } } };
    const ownKey = keyOf(result.trace.destinations.remote);
    expect(ownKey).not.toBe(originalKey);
    await expect.poll(async () => (await object(ownKey))?.root.runId, { timeout: 30_000, interval: 300 }).toBe(resetRunId);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: weed.bucket, Prefix: prefix }));
    expect((listed.Contents ?? []).map((o) => o.Key).filter((k) => k?.includes(workflowId))).toHaveLength(2);
    const after = (await object(originalKey))!;
    expect(after.root.runId).toBe(original.runId);
    expect(after.etag).toBe(before.etag);
  });
});
