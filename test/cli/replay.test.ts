import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSkein } from '../support/processes.js';
import { startStack, type Stack } from '../support/stack.js';
import { eventually } from '../support/poll.js';

/**
 * `skein replay` against real histories: runs of version 1 of a project (a workflow that waits for a signal),
 * then version 2 (a step added before the wait) replayed against them is refused, and version 1 is not.
 */
let stack: Stack;
let dir: string;
const runs: Array<{ workflowId: string; runId: string }> = [];

async function skein(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The replay sees the workers' settings: their runs record no local trace destination (traces off).
  const run = spawnSkein(args, { TEMPORAL_ADDRESS: stack.address, SKEIN_CATALOG: stack.catalog, SKEIN_TRACE_DIR: 'off', ...env });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** `probe`'s first value other than undefined (every 200 ms, at most `timeoutMs`). */
const until = <T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => eventually(probe, timeoutMs, 200);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-replay-cli-'));
  stack = await startStack('fixtures/projects/rollout/v1', {}, { traceDir: false });
  // Two runs: one decided (closed), one still waiting for its signal (open).
  for (const request of ['closed', 'open']) {
    // The API accepts runs once the worker's build is the catalog's current version (a moment after it starts).
    const res = await until(async () => {
      const r = await stack.post('/workflow/start', { workflowName: 'approval', input: { request } });
      return r.status === 404 ? undefined : r;
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    runs.push({ workflowId: res.body.workflowId, runId: res.body.runId });
    // Its first workflow task is done (the handler is set) before anything is sent.
    await until(async () => {
      const h = await stack.get(`/workflow/${res.body.workflowId}/history`);
      return h.body.events?.some((e: { eventType: string }) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED') || undefined;
    });
  }
  const signal = await stack.post(`/workflow/${runs[0]!.workflowId}/signal/decide`, { payload: { approved: true } });
  expect(signal.status).toBe(202);
  await until(async () => ((await stack.get(`/workflow/${runs[0]!.workflowId}/status`)).body.status === 'completed' ? true : undefined));
  // Both histories as `skein workflow history --json` writes them.
  for (const run of runs) {
    const res = await skein(['workflow', 'history', run.workflowId, '--json', '--url', stack.url]);
    expect(res.code).toBe(0);
    await writeFile(path.join(dir, `${run.workflowId}.json`), res.stdout);
  }
});

afterAll(async () => {
  await stack?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('skein replay', () => {
  it('refuses version 2 against version 1 runs read from the engine, naming each run and the first mismatching event', async () => {
    const res = await skein(['replay', 'fixtures/projects/rollout/v2']);
    expect(res.code, res.stderr).toBe(1);
    const closed = runs[0]!;
    const line = res.stderr.split('\n').find((l) => l.includes(closed.runId));
    expect(line).toBeDefined();
    expect(line).toContain('nondeterminism');
    expect(line).toContain('workflow "approval"');
    expect(line).toContain(`id ${closed.workflowId}`);
    // After the decision v1 recorded its step `stamp` where v2 schedules `review` (before the wait).
    expect(line).toMatch(/first mismatching event \d+ ACTIVITY_TASK_SCHEDULED: .*'approval#stamp'.*'approval#review'/);
    // The open run recorded nothing after its wait began: v2's added step is simply its next command there, as
    // Temporal's replayer (and a worker taking the run over) treats it.
    expect(res.stdout).toContain(`ok  approval  ${runs[1]!.workflowId}  run ${runs[1]!.runId}`);
    expect(res.stderr).toMatch(/1 of 2 histories from catalog ".+" at .+ do not replay/);
  });

  it('accepts version 1 against its own runs, closed and open', async () => {
    const res = await skein(['replay', 'fixtures/projects/rollout/v1']);
    expect(res.code, res.stderr).toBe(0);
    for (const run of runs) expect(res.stdout).toContain(`ok  approval  ${run.workflowId}  run ${run.runId}`);
    expect(res.stdout).toContain('2 histories from catalog');
  });

  it('reads the JSON files "skein workflow history --json" writes', async () => {
    const v2 = await skein(['replay', 'fixtures/projects/rollout/v2', '--histories', dir]);
    expect(v2.code, v2.stderr).toBe(1);
    expect(v2.stderr).toContain(`run ${runs[0]!.runId}`);
    const v1 = await skein(['replay', 'fixtures/projects/rollout/v1', '--histories', dir, '--limit', '1']);
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stdout.match(/^ok /gm)).toHaveLength(1);
  });

  it('replays against a build (skein build) as against its project', async () => {
    const out = path.join(dir, 'v2-build');
    const built = await skein(['build', 'fixtures/projects/rollout/v2', '--out', out]);
    expect(built.code, built.stderr).toBe(0);
    const res = await skein(['replay', out]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain(`run ${runs[0]!.runId}: first mismatching event`);
  });

  it('has nothing to replay for a workflow without runs, or a folder without histories: exit 0, once the project is judged', async () => {
    const engine = await skein(['replay', 'fixtures/projects/rollout/v2', '--workflow', 'audit']);
    expect(engine.code, engine.stderr).toBe(0);
    expect(engine.stdout).toContain('nothing to replay: no runs of workflow "audit"');
    const empty = await mkdtemp(path.join(tmpdir(), 'skein-replay-empty-'));
    const broken = await mkdtemp(path.join(tmpdir(), 'skein-replay-broken-'));
    try {
      const files = await skein(['replay', 'fixtures/projects/rollout/v1', '--histories', empty]);
      expect(files.code, files.stderr).toBe(0);
      expect(files.stdout).toContain(`nothing to replay: no history in ${empty}`);
      // A project that cannot be served fails the gate even with no history to replay on it.
      await mkdir(path.join(broken, 'greet'));
      await writeFile(path.join(broken, 'package.json'), '{"name":"broken","type":"module"}\n');
      await writeFile(path.join(broken, 'greet', 'workflow.js'), "export default workflow({ name: 'greet', fn: async (x) => x ;\n");
      const refused = await skein(['replay', broken, '--histories', empty]);
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toContain('error(s) in workflow packages');
      expect(refused.stdout).not.toContain('nothing to replay');
    } finally {
      await rm(empty, { recursive: true, force: true });
      await rm(broken, { recursive: true, force: true });
    }
  });

  it('skips a FIFO among the history files instead of waiting on it, and reads no further than --limit', async () => {
    const mixed = await mkdtemp(path.join(tmpdir(), 'skein-replay-fifo-'));
    try {
      const closed = runs[0]!;
      await copyFile(path.join(dir, `${closed.workflowId}.json`), path.join(mixed, '1.json'));
      execFileSync('mkfifo', [path.join(mixed, '2.json')]);
      await writeFile(path.join(mixed, '3.json'), '{"not":"a history"}');
      // Without --limit the bad third file is reached: a usage error naming it, after the first replayed.
      const all = await skein(['replay', 'fixtures/projects/rollout/v1', '--histories', mixed]);
      expect(all.stderr).toContain(`skipped ${path.join(mixed, '2.json')}: not a regular file`);
      expect(all.stdout).toContain(`ok  approval  ${closed.workflowId}  run ${closed.runId}`);
      expect(all.code).toBe(2);
      expect(all.stderr).toContain(`${path.join(mixed, '3.json')}: not a workflow history`);
      // --limit 1 stops after the first history: neither the FIFO nor the bad file is opened.
      const one = await skein(['replay', 'fixtures/projects/rollout/v1', '--histories', mixed, '--limit', '1']);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).not.toContain('skipped');
      expect(one.stdout).toContain('1 histories from');
    } finally {
      await rm(mixed, { recursive: true, force: true });
    }
  });

  it('exits 2 on a file that is not a history, naming it, and on a bad --limit', async () => {
    const bad = await mkdtemp(path.join(tmpdir(), 'skein-replay-bad-'));
    try {
      const file = path.join(bad, 'notes.json');
      await writeFile(file, '{"hello":"world"}');
      const res = await skein(['replay', 'fixtures/projects/rollout/v1', '--histories', bad]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`${file}: not a workflow history`);
      expect(res.stdout).not.toContain('ok ');
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
    const limit = await skein(['replay', 'fixtures/projects/rollout/v1', '--limit', 'many']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--limit must be a positive whole number');
  });
});
