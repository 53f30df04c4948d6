/**
 * Traces of runs that outlive their build's turn as the current version, against a real Temporal dev server: build 1
 * of a TypeScript project (fixtures/projects/rollout/v1) writes its traces to one folder, build 2 (../v2, the same
 * project, another build ID) to another. A run that waits for a signal on build 1 stays pinned to it after build 2
 * became current; it is closed, and its trace written, by build 1's worker, in build 1's folder. The API (without
 * `SKEIN_TRACE_DIR` of its own) reads it from there while build 1's workers live, as it reads build 2's runs from
 * build 2's folder; once build 1's last worker stops, its folder is no longer read.
 */
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { startWorker, type SkeinWorker } from '@skein/worker';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

const address = inject('temporalAddress');
const catalog = `earlier-build-${process.pid}-${Date.now()}`;
const logger = pino({ level: process.env.SKEIN_TEST_LOG ?? 'silent' });
let dir: string;
let api: ApiServer;
let url: string;
const workers: SkeinWorker[] = [];

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (route: string, body: unknown) =>
  fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(json);
const traceLog = (r: { workflowId: string; runId: string }) =>
  fetch(`${url}/workflow/${encodeURIComponent(r.workflowId)}/runs/${r.runId}/trace-log`).then(json);
const traces = (version: string) => path.join(dir, `traces-${version}`);

/** A worker of `version` writing traces to its own folder, with its own caches (a build of its own). */
async function start(version: 'v1' | 'v2'): Promise<SkeinWorker> {
  const worker = await startWorker({
    projectDir: path.join(dir, version),
    catalog,
    engine: { address, namespace: 'default' },
    logger,
    traceDir: traces(version),
  });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-earlier-build-'));
  for (const version of ['v1', 'v2']) {
    await cp(path.join(repoRoot, 'fixtures/projects/rollout', version), path.join(dir, version), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, version, 'node_modules'), 'dir');
  }
  api = await createApiServer(
    loadApiConfig({ PORT: '0', SKEIN_CATALOG: catalog, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: 'default', SKEIN_CATALOG_CACHE_MS: '0' }),
    { logger },
  );
  url = (await api.listen()).url;
}, 60_000);

afterAll(async () => {
  for (const w of workers.reverse()) await w.shutdown().catch(() => {});
  await api?.close();
  if (dir) await removeProjectDir(dir);
});

describe('traces of runs pinned to an earlier build', () => {
  it("reads a run closed by build 1 after build 2 became current from build 1's folder, while build 1 lives", { timeout: 180_000 }, async () => {
    const v1 = await start('v1');
    const waiting = await post('/workflow/start', { workflowName: 'approval', input: { request: 'r1' } });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    // The run has taken its first workflow task on build 1 (it is pinned there) once it reports `waiting`.
    await expect
      .poll(async () => (await post(`/workflow/${encodeURIComponent(waiting.body.workflowId)}/query/state`, {})).body, { timeout: 30_000, interval: 250 })
      .toBe('waiting');

    const v2 = await start('v2');
    expect(v2.deployment.buildId).not.toBe(v1.deployment.buildId);
    await expect
      .poll(async () => (await fetch(`${url}/workflow/catalog/${catalog}`).then(json)).body.deployment?.buildId, { timeout: 30_000, interval: 250 })
      .toBe(v2.deployment.buildId);

    const decided = await post(`/workflow/${encodeURIComponent(waiting.body.workflowId)}/signal/decide`, { payload: { approved: true } });
    expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    const resultOf = () => fetch(`${url}/workflow/${encodeURIComponent(waiting.body.workflowId)}/result`).then(json);
    await expect.poll(async () => (await resultOf()).status, { timeout: 30_000, interval: 250 }).toBe(200);
    const result = await resultOf();
    expect(result.body).toMatchObject({ status: 'completed', output: { workflowCode: 'v1', approved: true } });
    const earlier = { workflowId: waiting.body.workflowId as string, runId: result.body.runId as string };
    await expect.poll(async () => (await traceLog(earlier)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await traceLog(earlier)).body).toMatchObject({ source: 'local', location: expect.stringContaining(traces('v1') + path.sep) });

    // A run of build 2 is read from build 2's folder.
    const later = await post('/workflow/run', { workflowName: 'quick', input: {} });
    expect(later.body).toMatchObject({ status: 'completed', output: { workflowCode: 'v2' } });
    await expect.poll(async () => (await traceLog(later.body)).status, { timeout: 20_000, interval: 200 }).toBe(200);
    expect((await traceLog(later.body)).body.location).toContain(traces('v2') + path.sep);

    // Build 1's last worker stops cleanly (its lease ends): its folder is no longer read.
    await v1.shutdown();
    workers.splice(workers.indexOf(v1), 1);
    await expect.poll(async () => (await traceLog(earlier)).status, { timeout: 20_000, interval: 250 }).toBe(404);
  });
});
