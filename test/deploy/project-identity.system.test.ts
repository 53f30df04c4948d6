/**
 * A catalog belongs to one project, against a real Temporal dev server with `skein worker` and `skein api`
 * processes: workers of project A serve a catalog; a worker of project B started on it (a developer's checkout
 * pointed at the shared server) does not promote itself: it prints one error line naming both projects, the
 * catalog and the remedies, and exits 1, while every run of A completes. `skein deploy status` shows each build's
 * project; `skein deploy promote <B> --allow-project-change` hands the catalog to B (refused without the flag, and
 * a usage error without a build ID); a new build of B (same name, one file edited) still promotes itself.
 *
 * A system test: it starts its own worker and API processes (on a catalog of its own on the shared dev server).
 */
import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

let address: string;
let catalog: string;
let dir: string;
let connection: Connection;
let client: Client;
let apiUrl: string;
const processes: CliProcess[] = [];
let buildA = '';
let buildB = '';

const env = () => ({ TEMPORAL_ADDRESS: address, SKEIN_CATALOG: catalog, SKEIN_TRACE_DIR: 'off', SKEIN_LOG_LEVEL: 'info' });

function spawn(args: string[], extra: Record<string, string> = {}): CliProcess {
  const proc = spawnSkein(args, { ...env(), ...extra });
  processes.push(proc);
  return proc;
}

/** A worker of the project in `<dir>/<name>`, resolved once it serves. */
async function serve(name: string): Promise<CliProcess> {
  const proc = spawn(['worker', path.join(dir, name)]);
  await proc.waitFor(/worker serving \d+ workflow/, 120_000);
  return proc;
}

/** The build ID a worker logged in its "worker serving" line. */
function buildIdOf(proc: CliProcess): string {
  const m = /"buildId":"([^"]+)"/.exec(proc.output());
  if (!m) throw new Error(`no build ID in the worker's log:\n${proc.output()}`);
  return m[1]!;
}

/** `skein deploy <args>` against the test's catalog. */
async function deploy(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = spawnSkein(['deploy', ...args, '--catalog', catalog], { TEMPORAL_ADDRESS: address });
  const code = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

async function post(route: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(apiUrl + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** Copies a fixture project to `<dir>/<name>` under package name `packageName`. */
async function project(fixture: string, name: string, packageName: string): Promise<void> {
  const target = path.join(dir, name);
  await cp(path.join(repoRoot, 'fixtures/projects/rollout', fixture), target, { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(target, 'node_modules'), 'dir');
  const pkg = JSON.parse(await readFile(path.join(target, 'package.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(path.join(target, 'package.json'), JSON.stringify({ ...pkg, name: packageName }, null, 2));
}

beforeAll(async () => {
  address = inject('temporalAddress');
  catalog = `identity_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  dir = await mkdtemp(path.join(tmpdir(), 'skein-identity-'));
  await project('v1', 'a', 'shop-workflows');
  await project('v2', 'b', 'someone-elses-checkout');
  connection = await Connection.connect({ address });
  client = new Client({ connection });
  const api = spawn(['api'], { PORT: '0' });
  await api.waitFor(/API listening/, 60_000);
  apiUrl = /"url":"([^"]+)"/.exec(api.output())![1]!;
}, 120_000);

afterAll(async () => {
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await Promise.all(processes.map((p) => Promise.race([p.exited, new Promise((r) => setTimeout(r, 15_000))])));
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await connection?.close();
  await removeProjectDir(dir);
}, 60_000);

describe('a catalog belongs to one project', () => {
  it("a worker of another project exits 1 with one line naming both projects, the catalog and the remedies; A's runs all complete", async () => {
    const a = await serve('a');
    buildA = buildIdOf(a);
    expect(a.output()).toMatch(/"project":"shop-workflows"/);
    await vi.waitFor(async () => expect((await fetch(`${apiUrl}/workflow/catalog/${catalog}`)).status).toBe(200), { timeout: 30_000, interval: 200 });

    // Runs of A before, while and after B tries to take the catalog over.
    const started: string[] = [];
    const startQuick = async () => {
      const res = await post('/workflow/start', { workflowName: 'quick', input: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      started.push(res.body.workflowId as string);
    };
    for (let i = 0; i < 3; i++) await startQuick();
    const b = spawn(['worker', path.join(dir, 'b')]);
    const starting = (async () => {
      while (b.child.exitCode === null && started.length < 40) {
        await startQuick();
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const code = await Promise.race([b.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 120_000))]);
    await starting;
    expect(code, b.output()).toBe(1);
    for (let i = 0; i < 3; i++) await startQuick();

    const lines = b
      .stderr()
      .split('\n')
      .filter((l) => l.includes('not serving it'));
    expect(lines, b.output()).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toContain('"shop-workflows"');
    expect(line).toContain('"someone-elses-checkout"');
    expect(line).toContain(`catalog "${catalog}"`);
    expect(line).toContain('SKEIN_CATALOG');
    expect(line).toMatch(/skein deploy promote \S+ --catalog \S+ --allow-project-change/);
    expect(b.output()).not.toMatch(/is now the current version/);
    buildB = /skein deploy promote (\S+) --catalog/.exec(line)![1]!;
    expect(buildB).not.toBe(buildA);

    // Every run of A completes, and A stays the current version.
    const results = await Promise.all(started.map((id) => client.withDeadline(Date.now() + 60_000, () => client.workflow.getHandle(id).result())));
    expect(results).toHaveLength(started.length);
    expect(started.length).toBeGreaterThanOrEqual(7);
    const status = await deploy('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    const state = JSON.parse(status.stdout) as { current: string; versions: Array<{ buildId: string; project: string | null }> };
    expect(state.current).toBe(buildA);
    expect(state.versions.find((v) => v.buildId === buildA)?.project).toBe('shop-workflows');
    await vi.waitFor(
      async () => {
        const again = JSON.parse((await deploy('status', '--json')).stdout) as typeof state;
        expect(again.versions.find((v) => v.buildId === buildB)?.project).toBe('someone-elses-checkout');
      },
      { timeout: 15_000, interval: 500 },
    );
    const table = await deploy('status');
    expect(table.stdout).toMatch(/BUILD ID\s+PROJECT\s+STATE/);
    expect(table.stdout).toMatch(new RegExp(`${buildA}\\s+shop-workflows\\s+current`));
  }, 240_000);

  it('skein deploy promote (and ramp) of the other project is refused without --allow-project-change, is a usage error without a build ID, and hands the catalog over with the flag', async () => {
    const refused = await deploy('promote', buildB);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/--allow-project-change/);
    expect(refused.stderr).toContain('"someone-elses-checkout"');
    const missing = await deploy('promote', '--allow-project-change');
    expect(missing.code, missing.stderr).toBe(2);
    // A ramp would route a share of the catalog's runs to the other project's build: refused the same way.
    const ramped = await deploy('ramp', buildB, '100');
    expect(ramped.code, ramped.stderr).toBe(2);
    expect(ramped.stderr).toMatch(/--allow-project-change/);

    const promoted = await deploy('promote', buildB, '--allow-project-change');
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain(`promoted build ${buildB}`);
    // B has no running worker yet: the API does not serve A's workflows for B's routing meanwhile.
    const meanwhile = await post('/workflow/run', { workflowName: 'quick', input: {}, timeout: 1000 });
    expect(meanwhile.status).toBe(404);
    expect(meanwhile.body.error).toBe('CatalogNotAvailableError');

    // B's worker starts again: its build is current, so it serves, and its new workflow runs.
    const b = await serve('b');
    expect(buildIdOf(b)).toBe(buildB);
    const audit = await vi.waitFor(
      async () => {
        const res = await post('/workflow/run', { workflowName: 'audit', input: {}, timeout: 30_000 });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res;
      },
      { timeout: 30_000, interval: 500 },
    );
    expect(audit.body.status).toBe('completed');
  }, 240_000);

  it('a new build of the same project (same name, one file edited) still promotes itself', async () => {
    const file = path.join(dir, 'b', 'src', 'quick', 'workflow.ts');
    await writeFile(file, `${await readFile(file, 'utf8')}\n// edited\n`);
    const next = await serve('b');
    const buildB2 = buildIdOf(next);
    expect(buildB2).not.toBe(buildB);
    expect(next.output()).toMatch(/is now the current version/);
    const status = JSON.parse((await deploy('status', '--json')).stdout) as { current: string };
    expect(status.current).toBe(buildB2);
  }, 240_000);
});
