import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { freePort } from '@skein/dev-server';
import { Client, Connection } from '@temporalio/client';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';

/**
 * The authoring API's smoke suite (issue "Done when"): one TypeScript parent workflow (fixtures/projects/smoke-ts,
 * src/ layout, .js-suffixed imports) whose children cover every helper, run by the real CLI in two ways:
 * `skein dev` on the .ts sources (no build step), and `skein worker` (+ `skein api`) on its `tsc` output.
 */
const fixture = path.join(repoRoot, 'fixtures/projects/smoke-ts');
/** The compiled project, outside fixtures/ (whose every package.json is a golden-record fixture). */
let dist: string;

interface Mode {
  name: string;
  start(env: Record<string, string>): CliProcess[];
  ready: RegExp[];
}

const modes: Mode[] = [
  { name: 'skein dev on the .ts sources', start: (env) => [spawnSkein(['dev', fixture], env)], ready: [/Skein is up/] },
  {
    name: 'skein worker on the tsc output (dist/)',
    start: (env) => [spawnSkein(['worker', dist], env), spawnSkein(['api'], env)],
    ready: [/worker serving/, /API listening/],
  },
];

beforeAll(async () => {
  // The compiled project as it would be deployed: tsc's output (the repository's TypeScript, the fixture's
  // tsconfig.json) with the project's package.json, and node_modules where its dependencies are installed.
  dist = await mkdtemp(path.join(tmpdir(), 'skein-smoke-dist-'));
  await promisify(execFile)(process.execPath, [
    path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(fixture, 'tsconfig.json'),
    '--outDir',
    dist,
  ]);
  // Its package.json names the hook file by its compiled path.
  const pkg = JSON.parse(await readFile(path.join(fixture, 'package.json'), 'utf8')) as { skein: { hookFiles: string[] } };
  pkg.skein.hookFiles = pkg.skein.hookFiles.map((f) => f.replace(/^\.\/src\//, './').replace(/\.ts$/, '.js'));
  await writeFile(path.join(dist, 'package.json'), JSON.stringify(pkg, null, 2));
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dist, 'node_modules'), 'dir');
}, 120_000);

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

async function post(url: string, route: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function statusOf(url: string, workflowId: string): Promise<string | undefined> {
  const res = await fetch(`${url}/workflow/${encodeURIComponent(workflowId)}/status`);
  return ((await res.json()) as { status?: string }).status;
}

describe.each(modes)('$name', (mode) => {
  let url: string;
  let procs: CliProcess[] = [];
  let traceDir: string;
  let hookLog: string;

  beforeAll(async () => {
    const port = await freePort();
    traceDir = await mkdtemp(path.join(tmpdir(), 'skein-smoke-traces-'));
    const env = {
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      SKEIN_CATALOG: `smoke-${process.pid}-${Date.now()}`,
      PORT: String(port),
      SKEIN_TRACE_DIR: traceDir,
      SKEIN_HOOK_LOG: (hookLog = path.join(traceDir, 'hooks.jsonl')),
    };
    url = `http://127.0.0.1:${port}`;
    procs = mode.start(env);
    await Promise.all(procs.map((p, i) => p.waitFor(mode.ready[i]!, 120_000)));
  }, 150_000);

  afterAll(async () => {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGINT');
    await Promise.all(procs.map((p) => p.exited));
    await rm(traceDir, { recursive: true, force: true });
  }, 60_000);

  it('the smoke workflow passes every check, and its detached child outlives it', async () => {
    const res = await post(url, '/workflow/run', { workflowName: 'smoke', input: { apiUrl: url }, timeout: 120_000 });
    expect(res.status).toBe(200);
    expect(res.body.error, JSON.stringify(res.body.errorDetails)).toBeNull();
    expect(res.body.status).toBe('completed');
    const { passed, checks, detachedWorkflowId } = res.body.output as {
      passed: boolean;
      checks: Array<{ name: string; ok: boolean; detail?: unknown }>;
      detachedWorkflowId: string;
    };
    // The parent has closed; the detached child (ParentClosePolicy.ABANDON) was not terminated with it.
    await expect.poll(() => statusOf(url, detachedWorkflowId), { timeout: 15_000, interval: 500 }).toBe('completed');
    // The TypeScript hook file ran, and saw the step's failure under its class name.
    const hookLines = async () =>
      (await readFile(hookLog, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown);
    await expect.poll(hookLines, { timeout: 10_000, interval: 200 }).toContainEqual({ activityType: 'typedErrors#chargeCard', type: 'CardDeclined' });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(passed).toBe(true);
    // Every child contributed its checks.
    for (const prefix of ['sumNumbers', 'countdown', 'typedErrors:', 'parallelSquares:', 'childShapes:', 'counter:']) {
      expect(
        checks.some((c) => c.name.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
  }, 150_000);

  it.each([
    ['badThrow', null, 'NonErrorThrownError', 'step "throwString" threw a non-Error value: "boom"'],
    ['badContinue', { n: 1 }, 'SkeinValidationError', 'Invalid continueAsNew input of workflow "badContinue"'],
    ['badParallel', null, 'TypeError', 'jobs[1] is not a function (got string)'],
    ['badSleep', null, 'TypeError', 'sleep(): "soon" is not a duration'],
  ])(
    'bad input: %s fails its run with a named error',
    async (workflowName, input, name, message) => {
      const res = await post(url, '/workflow/run', { workflowName, input, timeout: 30_000 });
      expect(res.body.status).toBe('failed');
      expect(res.body.errorDetails.name).toBe(name);
      expect(res.body.errorDetails.message).toContain(message);
    },
    40_000,
  );

  it('a workflow failure’s stack trace names the workflow source file and line', async () => {
    const res = await post(url, '/workflow/run', { workflowName: 'badSleep', input: null, timeout: 30_000 });
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    try {
      const history = await new Client({ connection }).workflow.getHandle(res.body.workflowId, res.body.runId).fetchHistory();
      const failed = history.events?.find((e) => e.workflowExecutionFailedEventAttributes)?.workflowExecutionFailedEventAttributes;
      // Temporal maps bundle frames through the bundle's source map: the .ts line when run from source, and
      // from dist/ too, through tsc's own .js.map files (the fixture's tsconfig sets "sourceMap": true).
      expect(failed?.failure?.stackTrace).toMatch(/bad-sleep\/workflow\.ts:7:16\b/);
    } finally {
      await connection.close();
    }
  }, 40_000);

  it('still serves runs after the bad ones', async () => {
    const res = await post(url, '/workflow/run', { workflowName: 'sumNumbers', input: { values: [4, 5] } });
    expect(res.body).toMatchObject({ status: 'completed', output: { sum: 9, doubled: 18, parity: 'odd' } });
  }, 40_000);
});
