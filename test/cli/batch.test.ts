/**
 * `skein workflow batch` and the start options of `skein workflow start`, against a real stack (a worker on the
 * API test fixtures, on a catalog of this file's own): the dry run, the refusal without `--yes` when standard input
 * is not a terminal, the confirmation on a terminal (a pseudo-terminal from util-linux's `script`), progress, and a
 * start repeated with one `--idempotency-key`.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../api/support.js';
import { skein, SKEIN_BIN } from './client-support.js';

let h: Harness;
const sk = (args: string[]) => skein(h.url, args);

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

async function startWaiters(tag: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
  for (const workflowId of ids) expect((await h.call('POST', '/workflow/start', { body: { workflowName: 'waiter', workflowId } })).status).toBe(200);
  return ids;
}

async function statuses(ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await h.call('GET', '/workflow/{id}/status', { params: { id } })).body.status as string));
}

/**
 * Runs `skein <args>` on a pseudo-terminal (`script`), answers `answer` once the prompt shows, and resolves with
 * the exit code and everything the terminal showed.
 */
async function onTerminal(args: string[], answer: string): Promise<{ code: number | null; screen: string }> {
  const command = `${SKEIN_BIN} ${args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, SKEIN_API_URL: h.url, SKEIN_API_TOKEN: '', NO_COLOR: '1' } });
  let screen = '';
  let answered = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d;
    if (!answered && screen.includes('[y/N]')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, screen };
}

describe('skein workflow batch', () => {
  it('counts with --dry-run, refuses without --yes off a terminal, and runs with --yes', async () => {
    const ids = await startWaiters('cli-term', 2);
    const query = "WorkflowType = 'waiter' AND ExecutionStatus = 'Running' AND WorkflowId STARTS_WITH 'cli-term-'";
    await expect
      .poll(async () => (await sk(['workflow', 'batch', 'terminate', '--query', query, '--dry-run'])).stdout, { timeout: 20_000, interval: 250 })
      .toBe('would terminate 2 runs\n');
    const json = await sk(['workflow', 'batch', 'terminate', '--query', query, '--dry-run', '--json']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([0, { matched: 2 }]);

    const refused = await sk(['workflow', 'batch', 'terminate', '--query', query]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: terminate 2 runs: refused without --yes (standard input is not a terminal to confirm on)\n');
    expect(await statuses(ids)).toEqual(['running', 'running']);

    const ran = await sk(['workflow', 'batch', 'terminate', '--ids', ids.join(','), '--yes', '--reason', 'cli test', '--json']);
    expect(ran.code).toBe(0);
    const { batchId, matched } = JSON.parse(ran.stdout) as { batchId: string; matched: number };
    expect(matched).toBe(2);
    await expect
      .poll(async () => JSON.parse((await sk(['workflow', 'batch', 'status', batchId, '--json'])).stdout).state, { timeout: 30_000, interval: 250 })
      .toBe('completed');
    const progress = await sk(['workflow', 'batch', 'status', batchId]);
    expect(progress.stdout).toMatch(/progress\s+2 completed, 0 failed of 2/);
    expect(progress.stdout).toMatch(/reason\s+cli test/);
    expect(await statuses(ids)).toEqual(['terminated', 'terminated']);
    expect((await sk(['workflow', 'batch', 'list'])).stdout).toContain(batchId);
  });

  it('asks on a terminal with the count: "n" changes nothing, "y" signals', async () => {
    const ids = await startWaiters('cli-tty', 2);
    const args = ['workflow', 'batch', 'signal', 'finish', '--ids', ids.join(','), '--payload', '{"by":"tty"}'];
    const no = await onTerminal(args, 'n');
    expect(no.code).toBe(0);
    expect(no.screen).toContain('signal 2 runs? [y/N]');
    expect(no.screen).toContain('aborted: nothing changed');
    expect(await statuses(ids)).toEqual(['running', 'running']);
    const yes = await onTerminal(args, 'y');
    expect(yes.code).toBe(0);
    expect(yes.screen).toMatch(/batch [0-9a-f-]{36} started: signal 2 runs/);
    await expect.poll(() => statuses(ids), { timeout: 30_000, interval: 250 }).toEqual(['completed', 'completed']);
  });

  it('usage errors exit 2', async () => {
    expect(await sk(['workflow', 'batch', 'terminate'])).toMatchObject({ code: 2, stderr: 'error: give exactly one of --query and --ids\n' });
    expect(await sk(['workflow', 'batch', 'cancel', '--ids', 'a', '--catalog', 'x'])).toMatchObject({
      code: 2,
      stderr: 'error: --catalog applies to --query only\n',
    });
    const badQuery = await sk(['workflow', 'batch', 'terminate', '--query', 'NoSuchAttribute = 1', '--yes']);
    expect(badQuery.code).toBe(3);
    expect(badQuery.stderr).toMatch(/^error: ValidationError: Invalid query: .*NoSuchAttribute/);
  });
});

describe('skein workflow start, safe to repeat', () => {
  it('one --idempotency-key gives one execution; --start-delay delays it', async () => {
    const key = `cli-key-${Date.now()}`;
    const args = ['workflow', 'start', 'echo', '--input', '{"n":1}', '--idempotency-key', key, '--start-delay', '6s', '--json'];
    const first = await sk(args);
    expect(first.code).toBe(0);
    const ref = JSON.parse(first.stdout) as { workflowId: string; runId: string };
    expect(ref.workflowId).toMatch(/^idem-echo-/);
    const during = (await h.call('GET', '/workflow/{id}/status', { params: { id: ref.workflowId } })).body;
    expect(during.delayedUntil).toBeGreaterThan(Date.now());
    expect((await sk(['workflow', 'status', ref.workflowId])).stdout).toMatch(/^delayed until {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/m);
    expect(JSON.parse((await sk(args)).stdout)).toEqual(ref);
    const conflict = await sk(['workflow', 'start', 'echo', '--id', ref.workflowId, '--on-conflict', 'use-existing', '--json']);
    expect(JSON.parse(conflict.stdout)).toEqual(ref);
  });
});
