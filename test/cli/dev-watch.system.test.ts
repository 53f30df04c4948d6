import { cp, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

/** A copy of examples/ in a temp folder (never the repository's files), resolving packages through the repo's node_modules. */
async function examplesCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'skein-dev-watch-'));
  await cp(path.join(repoRoot, 'examples'), dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

async function summarize(apiPort: number): Promise<{ status: string; output?: { words: number } }> {
  const res = await fetch(`http://127.0.0.1:${apiPort}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'summarize', input: { text: 'One two three. Four five.' } }),
  });
  return (await res.json()) as { status: string; output?: { words: number } };
}

/** The JSON log lines printed so far. */
function lines(dev: CliProcess): Array<Record<string, unknown>> {
  return dev
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Waits until `count` log lines match `pattern` (the reload messages repeat). */
async function waitForCount(dev: CliProcess, pattern: RegExp, count: number, timeoutMs = 120_000): Promise<void> {
  await vi.waitFor(
    () => {
      if (dev.child.exitCode !== null) throw new Error(`exited before ${pattern}:\n${dev.output()}`);
      if (lines(dev).filter((l) => pattern.test(String(l.msg))).length < count) throw new Error(`timed out waiting for ${count}x ${pattern}:\n${dev.output()}`);
    },
    { timeout: timeoutMs, interval: 200 },
  );
}

const stepsFile = (dir: string) => path.join(dir, 'summarize', 'steps.js');
const wordCount = 'words: text.split(/\\s+/).filter(Boolean).length,';

describe('skein dev: watch mode and an engine of its own', () => {
  const dirs: string[] = [];
  const devs: CliProcess[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      dirs.push(await examplesCopy());
      ports.push(await freePort());
    }
    // The second project counts words differently from the start, so each API shows which worker served it.
    const second = await readFile(stepsFile(dirs[1]!), 'utf8');
    await writeFile(stepsFile(dirs[1]!), second.replace(wordCount, 'words: 2000,'));
    // Both start at once; neither is told a Temporal port or address: each must run its own server.
    for (let i = 0; i < 2; i++) devs.push(spawnSkein(['dev', dirs[i]!], { PORT: String(ports[i]), TEMPORAL_ADDRESS: '' }));
    await Promise.all(devs.map((d) => d.waitFor(/Skein is up/, 180_000)));
  }, 240_000);

  afterAll(async () => {
    for (const dev of devs) {
      if (dev.child.exitCode === null) {
        dev.child.kill('SIGINT');
        await dev.exited;
      }
    }
    for (const dir of dirs) await removeProjectDir(dir);
  });

  it('two projects run side by side, each on its own dev server', async () => {
    const banners = devs.map((d) => lines(d).find((l) => /Skein is up/.test(String(l.msg)))!);
    expect(banners[0]!.temporal).not.toBe(banners[1]!.temporal);
    expect(banners[0]!.msg).toMatch(
      /API http:\/\/127\.0\.0\.1:\d+ \(docs http:\/\/127\.0\.0\.1:\d+\/docs, metrics http:\/\/127\.0\.0\.1:\d+\/metrics\), worker metrics http:\/\/127\.0\.0\.1:\d+\/metrics,.*catalog "main", workflows: .*summarize/,
    );
    expect(banners[0]!.workerMetrics).not.toBe(banners[1]!.workerMetrics);
    expect(banners[0]!.workflows).toEqual(expect.arrayContaining(['onboard', 'summarize', 'welcome']));
    expect(await summarize(ports[0]!)).toMatchObject({ status: 'completed', output: { words: 5 } });
    expect(await summarize(ports[1]!)).toMatchObject({ status: 'completed', output: { words: 2000 } });
  }, 120_000);

  it('reloads an edited step while the API stays up; a validation error keeps the previous worker serving', async () => {
    const [dev, dir, port] = [devs[0]!, dirs[0]!, ports[0]!];
    const original = await readFile(stepsFile(dir), 'utf8');
    await writeFile(stepsFile(dir), original.replace(wordCount, 'words: 1000,'));
    await waitForCount(dev, /^reloaded in [\d.]+ s: summarize\/steps\.js changed/, 1);
    // The edit is acknowledged at once, before the seconds of validating and bundling.
    const messages = lines(dev).map((l) => String(l.msg));
    expect(messages.indexOf('summarize/steps.js changed; reloading…')).toBeGreaterThan(-1);
    expect(messages.indexOf('summarize/steps.js changed; reloading…')).toBeLessThan(messages.findIndex((m) => m.startsWith('reloaded in ')));
    expect(await summarize(port)).toMatchObject({ status: 'completed', output: { words: 1000 } });

    // A workflow importing a Node module is refused by the validator: the findings are printed, the old worker stays.
    const workflowFile = path.join(dir, 'summarize', 'workflow.js');
    const workflowSource = await readFile(workflowFile, 'utf8');
    await writeFile(workflowFile, `import { readFileSync } from 'node:fs';\n${workflowSource}`);
    await waitForCount(dev, /^reload failed after summarize\/workflow\.js changed; the previous worker keeps serving/, 1);
    expect(lines(dev).find((l) => /^reload failed/.test(String(l.msg)))!.msg).toContain('workflow/no-node-modules');
    expect(await summarize(port)).toMatchObject({ status: 'completed', output: { words: 1000 } });

    await writeFile(workflowFile, workflowSource);
    await waitForCount(dev, /^reloaded in /, 2);
    expect(await summarize(port)).toMatchObject({ status: 'completed', output: { words: 1000 } });
    // The other project never saw any of this.
    expect(await summarize(ports[1]!)).toMatchObject({ status: 'completed', output: { words: 2000 } });
    // The worker metrics URL of the banner outlives the reloads: it now reads the newest worker's metrics.
    const banner = lines(dev).find((l) => /Skein is up/.test(String(l.msg)))!;
    const scrape = await fetch(String(banner.workerMetrics));
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^temporal_workflow_completed\{[^}]*workflow_type="summarize"[^}]*\} 1$/m);
    const apiScrape = await (await fetch(String(banner.metrics))).text();
    expect(apiScrape).toMatch(/^http_server_request_duration_seconds_count\{[^}]*http_route="\/workflow\/run"[^}]*\} [1-9]/m);
    // The runs above were requests of the API: their lines (info) stay out of the console, as the worker's do.
    expect(lines(dev).filter((l) => l.name === 'api' && l.msg === 'request')).toEqual([]);
  }, 300_000);

  it('warns of an edit that breaks an open run, judged against the code that run recorded, not the reload before', async () => {
    const [dev, dir, port] = [devs[1]!, dirs[1]!, ports[1]!];
    const post = async (route: string, body: unknown) =>
      fetch(`http://127.0.0.1:${port}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const started = (await (await post('/workflow/start', { workflowName: 'approval', input: { request: 'r', approver: 'ada' } })).json()) as {
      workflowId: string;
    };
    // The run has notified the approver and waits for the decision (a timer): its last workflow task is done.
    await vi.waitFor(
      async () => {
        const history = (await (await fetch(`http://127.0.0.1:${port}/workflow/${started.workflowId}/history?pageSize=50`)).json()) as {
          events: { eventType: string }[];
        };
        expect(history.events.map((e) => e.eventType)).toContain('EVENT_TYPE_TIMER_STARTED');
      },
      { timeout: 60_000, interval: 250 },
    );
    const file = path.join(dir, 'approval', 'workflow.ts');
    const recorded = await readFile(file, 'utf8');
    const notify = '    await notifyApprover({ request, approver });\n';
    const inserted = recorded.replace(notify, notify + notify);
    const warnings = () => lines(dev).filter((l) => /^workflow "approval"/.test(String(l.msg)));
    // A second notification before the wait: the waiting run recorded a timer there.
    await writeFile(file, inserted);
    await waitForCount(
      dev,
      /^workflow "approval": this edit issues activity "approval#notifyApprover" at approval\/workflow\.ts:\d+:\d+ where its open run recorded a timer/,
      1,
    );
    // Back to the code the run recorded (as a patched() guard or an undone rename does): the run replays it, though
    // the reload before served another code, so this reload warns of nothing (the old note compared with that reload).
    await writeFile(file, recorded);
    await waitForCount(dev, /^reloaded in /, 2);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the note follows its reload by a moment
    expect(warnings().map((l) => String(l.msg))).toEqual([expect.stringMatching(/where its open run recorded a timer/)]);
    expect((await post(`/workflow/${started.workflowId}/terminate`, { reason: 'test over' })).status).toBe(200);
  }, 300_000);
});
