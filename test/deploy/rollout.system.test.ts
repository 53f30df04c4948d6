/**
 * A rollout of a new version of a project on a live fleet, against a real Temporal dev server, with default
 * settings: three workers of version 1 and two API processes serve runs (some waiting for a signal); two workers
 * of version 2 (a step added before the wait of `approval`, a new workflow `audit`) join while a version-1 worker
 * and an API process are killed with SIGKILL. Every accepted run completes on the code it started on, no history
 * holds a failed workflow task (nondeterminism) or a failed activity (misrouted), the new workflows run (one of
 * them declared auto-upgrade, with patched()),
 * `skein deploy rollback` and `promote` move new runs between the builds, and after every worker is killed the
 * API refuses runs within 15 s.
 *
 * Scale: 60 waiting `approval` runs and 180 `quick` runs before the rollout (started 10 at a time through both API
 * processes), 30 `quick` runs while it happens, 10 + 10 + 5 after it: 295 runs, sized to keep this file well under three minutes on a shared 2-core
 * machine.
 */
import { cp, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { eventually } from '../support/poll.js';
import { removeProjectDir } from '../support/project-dirs.js';

const WAITING = 60;
const QUICK = 180;

let address: string;
let catalog: string;
let dir: string;
let connection: Connection;
let client: Client;
const processes: CliProcess[] = [];
const apis: Array<{ proc: CliProcess; url: string }> = [];
const v1Workers: CliProcess[] = [];
const v2Workers: CliProcess[] = [];
/** Runs started before the rollout (v1) and after it (v2), by workflow id. */
const runs = {
  v1Approval: [] as string[],
  v1Quick: [] as string[],
  during: [] as string[],
  v2Approval: [] as string[],
  v2Quick: [] as string[],
  audit: [] as string[],
};
let v1Build = '';
let v2Build = '';

const env = () => ({ TEMPORAL_ADDRESS: address, SKEIN_CATALOG: catalog, SKEIN_TRACE_DIR: 'off', SKEIN_LOG_LEVEL: 'info' });

function spawn(args: string[], extra: Record<string, string> = {}): CliProcess {
  const proc = spawnSkein(args, { ...env(), ...extra });
  processes.push(proc);
  return proc;
}

/** A worker of `version`, resolved once it serves; its build ID read from its log. */
async function startWorker(version: 'v1' | 'v2'): Promise<CliProcess> {
  const proc = spawn(['worker', path.join(dir, version)]);
  await proc.waitFor(/worker serving \d+ workflow/, 120_000);
  return proc;
}

/** How a worker got its workflow bundle (`startup.bundleCache` of its serving line). */
function bundleCacheOf(proc: CliProcess): string | undefined {
  return /"bundleCache":"([a-z]+)"/.exec(
    proc
      .output()
      .split('\n')
      .find((l) => l.includes('"startup"')) ?? '',
  )?.[1];
}

/** The build ID a worker logged (its `deployment` field). */
function buildIdOf(proc: CliProcess): string {
  const line = proc
    .output()
    .split('\n')
    .find((l) => l.includes('"buildId"'));
  const m = line && /"buildId":"([^"]+)"/.exec(line);
  if (!m) throw new Error(`no build ID in the worker's log:\n${proc.output()}`);
  return m[1]!;
}

async function startApi(): Promise<{ proc: CliProcess; url: string }> {
  const proc = spawn(['api'], { PORT: '0' });
  await proc.waitFor(/API listening/, 60_000);
  const url = /"url":"([^"]+)"/.exec(proc.output())![1]!;
  return { proc, url };
}

async function post(url: string, route: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function start(url: string, workflowName: string, input: unknown = {}): Promise<string> {
  const res = await post(url, '/workflow/start', { workflowName, input });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.workflowId as string;
}

/** The `state` query of a run, bounded to 10 s (a query waits for a worker of the run's build). */
const stateOf = (id: string) => client.withDeadline(Date.now() + 10_000, () => client.workflow.getHandle(id).query<string>('state'));

/** `skein deploy <args>` against the test's catalog: exit code and stdout. */
async function deploy(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawnSkein(['deploy', ...args, '--catalog', catalog], { TEMPORAL_ADDRESS: address });
  const code = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

/** Whether a run's history holds a failed workflow task (a nondeterminism error) or a failed or timed-out activity. */
async function problemsOf(workflowId: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.workflowTaskFailedEventAttributes || e.activityTaskFailedEventAttributes || e.activityTaskTimedOutEventAttributes)
    .map((e) =>
      JSON.stringify(e.workflowTaskFailedEventAttributes?.failure?.message ?? e.activityTaskFailedEventAttributes?.failure?.message ?? 'activity timed out'),
    );
}

beforeAll(async () => {
  address = inject('temporalAddress');
  catalog = `rollout_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  dir = await mkdtemp(path.join(tmpdir(), 'skein-rollout-'));
  for (const version of ['v1', 'v2']) {
    await cp(path.join(repoRoot, 'fixtures/projects/rollout', version), path.join(dir, version), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, version, 'node_modules'), 'dir');
  }
  connection = await Connection.connect({ address });
  client = new Client({ connection });
}, 60_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await connection?.close();
  await removeProjectDir(dir);
});

describe('rollout of a new build on a live fleet', () => {
  it('serves version 1 with three workers and two API processes, runs waiting and quick runs', async () => {
    // Three workers of a project never started before, at once: one bundles, the other two serve its bundle (having
    // waited for it, or found it stored if they reached the cache later).
    v1Workers.push(...(await Promise.all([startWorker('v1'), startWorker('v1'), startWorker('v1')])));
    expect(v1Workers.map(bundleCacheOf).sort()).toEqual(['hit', 'hit', 'miss']);
    v1Build = buildIdOf(v1Workers[0]!);
    expect(v1Workers.map(buildIdOf)).toEqual([v1Build, v1Build, v1Build]);
    apis.push(...(await Promise.all([startApi(), startApi()])));
    await eventually(async () => (await fetch(`${apis[0]!.url}/workflow/catalog/${catalog}`)).status === 200, 30_000);
    for (let i = 0; i < WAITING; i += 10) {
      runs.v1Approval.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => start(apis[j % 2]!.url, 'approval', { request: `r${i + j}` })))));
    }
    for (let i = 0; i < QUICK; i += 10) runs.v1Quick.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => start(apis[j % 2]!.url, 'quick')))));
    // Every quick run has completed on version 1, and every waiting run has passed its first step and waits for
    // its signal on version 1 (a run is pinned to the build that completes its first workflow task).
    await Promise.all(runs.v1Quick.map((id) => client.workflow.getHandle(id).result()));
    await eventually(async () => {
      const states = await Promise.all(runs.v1Approval.map((id) => stateOf(id)));
      return states.every((s) => s === 'waiting');
    }, 60_000);
  }, 180_000);

  it('version 2 joins with default settings while a v1 worker and an API process are killed; it becomes current and its new workflow is runnable', async () => {
    v1Workers.shift()!.child.kill('SIGKILL');
    apis.shift()!.proc.child.kill('SIGKILL');
    // Two replicas of the new build start at once (as a Kubernetes Deployment starts them): both try to promote it.
    const joining = Promise.all([startWorker('v2'), startWorker('v2')]);
    // Runs started while the new build joins: each runs wholly on the build that takes its first workflow task.
    for (let i = 0; i < 30; i += 10) runs.during.push(...(await Promise.all(Array.from({ length: 10 }, () => start(apis[0]!.url, 'quick')))));
    v2Workers.push(...(await joining));
    expect(v2Workers.map(bundleCacheOf).sort()).toEqual(['hit', 'miss']);
    expect(v2Workers.map((w) => w.output()).join('\n')).not.toMatch(/could not make build/);
    v2Build = buildIdOf(v2Workers[0]!);
    expect(v2Build).not.toBe(v1Build);
    const url = apis[0]!.url;
    const served = await eventually(async () => {
      const res = await fetch(`${url}/workflow/catalog/${catalog}`);
      const doc = (await res.json()) as { workflows?: Array<{ name: string }>; deployment?: { buildId: string } };
      return doc.deployment?.buildId === v2Build ? doc : undefined;
    }, 30_000);
    expect(served.workflows!.map((w) => w.name)).toEqual(expect.arrayContaining(['approval', 'audit', 'quick', 'renewal']));
    for (let i = 0; i < 10; i++) runs.v2Approval.push(await start(url, 'approval', { request: `n${i}` }));
    for (let i = 0; i < 10; i++) runs.v2Quick.push(await start(url, 'quick'));
    for (let i = 0; i < 5; i++) runs.audit.push(await start(url, 'audit'));
    // A workflow declared auto-upgrade runs as such (patched() is true for a new run); the others are pinned.
    const renewal = await post(url, '/workflow/run', { workflowName: 'renewal', input: {}, timeout: 30_000 });
    expect(renewal.body.output).toEqual({ workflowCode: 'v2', discounted: true });
    const behaviourOf = async (id: string) =>
      (await client.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId: id } })).workflowExecutionInfo?.versioningInfo
        ?.behavior;
    const { temporal } = (await import('@temporalio/proto')).default;
    expect(await behaviourOf(renewal.body.workflowId)).toBe(temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE);
    expect(await behaviourOf(runs.v1Approval[0]!)).toBe(temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED);

    const status = await deploy('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    const state = JSON.parse(status.stdout) as { current: string; versions: Array<{ buildId: string; state: string }> };
    expect(state.current).toBe(v2Build);
    expect(state.versions.map((v) => v.buildId).sort()).toEqual([v1Build, v2Build].sort());
    const table = await deploy('status');
    expect(table.code, table.stderr).toBe(0);
    // Each build's row names its project: both builds are of the one project.
    expect(table.stdout).toMatch(new RegExp(`${v2Build}\\s+rollout-fixture\\s+current`));
    expect(table.stdout).toContain(v1Build);
  }, 180_000);

  it('every accepted run completes on the code it started on, with no failed workflow task or misrouted activity', async () => {
    const url = apis[0]!.url;
    await eventually(async () => {
      const states = await Promise.all(runs.v2Approval.map((id) => stateOf(id)));
      return states.every((s) => s === 'waiting');
    }, 60_000);
    // Runs pinned to version 1 stay queryable through the API after version 2 became current. A run whose sticky
    // worker was killed answers once Temporal moves its task off that worker's sticky queue (up to 10 s): until
    // then the API answers 504, so each query is retried while it does.
    for (const id of runs.v1Approval.slice(0, 5)) {
      const res = await eventually(async () => {
        const r = await post(url, `/workflow/${encodeURIComponent(id)}/query/state`, {});
        return r.status === 504 ? undefined : r;
      }, 45_000);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toBe('waiting');
    }
    // Signals go through the API process that survived.
    for (const id of [...runs.v1Approval, ...runs.v2Approval]) {
      const res = await post(url, `/workflow/${encodeURIComponent(id)}/signal/decide`, { payload: { approved: true } });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    // Every run closes in time; otherwise the failure names the open ones with their last events.
    const all = Object.values(runs).flat();
    const open = async () =>
      (await Promise.all(all.map(async (id) => ((await client.workflow.getHandle(id).describe()).status.name === 'RUNNING' ? id : null)))).filter(
        (x) => x !== null,
      );
    let stillOpen = await open();
    await eventually(
      async () => {
        stillOpen = await open();
        return stillOpen.length === 0;
      },
      120_000,
      1000,
    ).catch(() => undefined);
    if (stillOpen.length > 0) {
      const tails = await Promise.all(
        stillOpen.slice(0, 3).map(async (id) => {
          const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
          return `${id}: ${events
            .slice(-4)
            .map((e) => Object.keys(e).find((k) => k.endsWith('Attributes')))
            .join(' > ')}`;
        }),
      );
      throw new Error(`${stillOpen.length} run(s) still open:\n${tails.join('\n')}`);
    }
    const result = (id: string) => client.workflow.getHandle(id).result() as Promise<Record<string, unknown>>;
    /** The runs among `ids` whose result differs from `expected`, with their results. */
    const unlike = async (ids: string[], expected: Record<string, unknown>) =>
      (await Promise.all(ids.map(async (id) => ({ id, r: await result(id) })))).filter(({ r }) => Object.entries(expected).some(([k, v]) => r[k] !== v));
    expect(await unlike(runs.v1Approval, { workflowCode: 'v1', stepCode: 'v1', reviewed: false, approved: true })).toEqual([]);
    expect(await unlike(runs.v2Approval, { workflowCode: 'v2', stepCode: 'v2', reviewed: true, approved: true })).toEqual([]);
    expect(await unlike(runs.v1Quick, { workflowCode: 'v1', stepCode: 'v1' })).toEqual([]);
    expect(await unlike([...runs.v2Quick, ...runs.audit], { workflowCode: 'v2', stepCode: 'v2' })).toEqual([]);
    const mixed = (await Promise.all(runs.during.map(async (id) => ({ id, r: await result(id) })))).filter(({ r }) => r.workflowCode !== r.stepCode);
    expect(mixed).toEqual([]);
    const problems = (await Promise.all(all.map(async (id) => (await problemsOf(id)).map((p) => `${id}: ${p}`)))).flat();
    expect(problems).toEqual([]);
  }, 180_000);

  it('skein deploy rollback sends new runs to version 1 again, promote to version 2, ramp shares them; an unknown build ID exits 2 naming the known ones', async () => {
    const url = apis[0]!.url;
    const quickOn = async () =>
      (await post(url, '/workflow/run', { workflowName: 'quick', input: {}, timeout: 30_000 })).body.output as Record<string, unknown>;
    const back = await deploy('rollback');
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(v1Build);
    const onV1 = await eventually(async () => {
      const out = await quickOn();
      return out?.workflowCode === 'v1' ? out : undefined;
    }, 20_000);
    expect(onV1.stepCode).toBe('v1');
    // Version 1's catalog is served again: audit is not in it.
    const doc = (await (await fetch(`${url}/workflow/catalog/${catalog}`)).json()) as { workflows: Array<{ name: string }> };
    expect(doc.workflows.map((w) => w.name)).not.toContain('audit');

    const again = await deploy('promote', v2Build);
    expect(again.code, again.stderr).toBe(0);
    const onV2 = await eventually(async () => {
      const out = await quickOn();
      return out?.workflowCode === 'v2' ? out : undefined;
    }, 20_000);
    expect(onV2.stepCode).toBe('v2');

    const ramp = await deploy('ramp', v1Build, '30', '--json');
    expect(ramp.code, ramp.stderr).toBe(0);
    expect(JSON.parse(ramp.stdout)).toMatchObject({ liveWorker: true });
    const ramping = JSON.parse((await deploy('status', '--json')).stdout) as { current: string; ramping: { buildId: string; percent: number } | null };
    expect(ramping).toMatchObject({ current: v2Build, ramping: { buildId: v1Build, percent: 30 } });
    expect((await deploy('ramp', v1Build, '0')).code).toBe(0);
    expect((JSON.parse((await deploy('status', '--json')).stdout) as { ramping: unknown }).ramping).toBeNull();
    const badShare = await deploy('ramp', v1Build, '101');
    expect(badShare.code).toBe(2);

    const unknown = await deploy('promote', 'no-such-build');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown build ID "no-such-build"');
    expect(unknown.stderr).toContain(v1Build);
    expect(unknown.stderr).toContain(v2Build);
  }, 120_000);

  it('after every worker is killed, runs are refused with 404 CatalogNotAvailableError within 15 s', async () => {
    const url = apis[0]!.url;
    for (const w of [...v1Workers, ...v2Workers]) w.child.kill('SIGKILL');
    const killedAt = Date.now();
    const refused = await eventually(
      async () => {
        const res = await post(url, '/workflow/run', { workflowName: 'quick', input: {}, timeout: 1_000 });
        return res.status === 404 ? res : undefined;
      },
      30_000,
      250,
    );
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    expect(refused.body).toMatchObject({ error: 'CatalogNotAvailableError' });
    const start = await post(url, '/workflow/start', { workflowName: 'quick', input: {} });
    expect(start.status).toBe(404);
    // The catalog listing agrees at once (its builds' leases lapsed), although the engine still lists the killed
    // workers' last polls for a minute.
    const listing = await fetch(`${url}/workflow/catalog`);
    expect(listing.status).toBe(404);
    const { message } = (await listing.json()) as { message: string };
    expect(message).toMatch(/; live catalogs: /);
    expect(message.split('; live catalogs: ')[1]).not.toContain(`"${catalog}"`);
    // Routing runs to a build none of whose workers lives is done, with a warning that says what happens meanwhile.
    // The killed workers' leases lapse within their 10 s TTL of the last renewal (version 2's already has: the API
    // refused its runs); until then promoting version 1 rightly finds one live.
    const promoted = await eventually(
      async () => {
        const res = await deploy('promote', v1Build);
        expect(res.code, res.stderr).toBe(0);
        return res.stderr.includes(`no live worker of build ${v1Build} serves "${catalog}"`) ? res : undefined;
      },
      20_000,
      500,
    );
    expect(promoted.stderr).toContain('the API refuses new runs of the catalog (CatalogNotAvailableError) until one starts');
    // The engine still lists the killed workers' polls for a minute; their builds' leases lapsed, so none counts.
    const status = JSON.parse((await deploy('status', '--json')).stdout) as { versions: Array<{ buildId: string; workers: string[] }> };
    expect(status.versions.map((v) => [v.buildId, v.workers])).toEqual(
      expect.arrayContaining([
        [v1Build, []],
        [v2Build, []],
      ]),
    );
    const ramped = await deploy('ramp', v2Build, '20');
    expect(ramped.code, ramped.stderr).toBe(0);
    expect(ramped.stderr).toContain(`no live worker of build ${v2Build} serves "${catalog}"`);
    expect(ramped.stderr).toContain('the 20% of new runs it gets wait until one starts');
    const json = await deploy('ramp', v2Build, '20', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ ramping: { buildId: v2Build, percent: 20 }, liveWorker: false });
  }, 90_000);
});
