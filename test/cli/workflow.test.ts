import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@skein/dev-server';
import { sharedTraceDir, startStack, type Stack } from '../support/stack.js';
import { hasJq, oneTo, printedEventIds, shell, skein, SKEIN_BIN, until } from './client-support.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TEXT = { text: 'Durable workflows survive crashes. Temporal replays them.' };
const SUMMARY = {
  words: 7,
  sentences: 2,
  keywords: ['crashes', 'durable', 'replays'],
  readability: { value: 'easy', confidence: 0.8, reasoning: '3.5 words per sentence' },
};
const ADA = { name: 'ada lovelace', email: 'Ada@Example.com', locale: 'fr' };

let stack: Stack;
let traceDir: string;
const id = (name: string) => `cli-${name}-${Date.now()}`;
const sk = (args: string[], options?: Parameters<typeof skein>[2]) => skein(stack.url, args, options);

beforeAll(async () => {
  traceDir = sharedTraceDir('examples');
  // The API reads trace files only under SKEIN_TRACE_DIR: the worker's folder.
  stack = await startStack('examples', { SKEIN_TRACE_DIR: traceDir }, { traceDir });
});

afterAll(async () => {
  await stack?.close();
});

describe('skein --help', () => {
  it('lists every command, and each client command documents its options, environment and exit codes', async () => {
    const top = await sk(['--help']);
    expect(top.code).toBe(0);
    const commands = [...top.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(expect.arrayContaining(['dev', 'worker', 'api', 'temporal', 'workflow', 'catalog', 'validate']));

    const workflow = await sk(['workflow', '--help']);
    const subcommands = [...workflow.stdout.split('Commands:')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]);
    expect(subcommands).toEqual([
      'run',
      'start',
      'status',
      'result',
      'input',
      'list',
      'history',
      'signal',
      'query',
      'update',
      'stop',
      'terminate',
      'reset',
      'feedback',
      'trace',
      'batch',
      'help',
    ]);
    const feedback = await sk(['workflow', 'feedback', '--help']);
    expect(feedback.stdout).toContain('--payload <json>');
    expect(feedback.stdout).toContain('Environment:');
    expect(feedback.stdout).toContain('--json');

    const run = await sk(['workflow', 'run', '--help']);
    for (const text of [
      '--input <json>',
      '--input-file <file>',
      '--timeout <duration>',
      '--on-conflict <policy>',
      '--on-closed <policy>',
      '--idempotency-key <key>',
      '--start-delay <duration>',
      '--json',
      'env: SKEIN_API_URL',
      '\n  SKEIN_API_TOKEN  bearer token',
      'NO_COLOR',
      'Exit codes: 0 success',
    ]) {
      expect(run.stdout).toContain(text);
    }
  });
});

describe('skein workflow run', () => {
  it('prints the output on stdout and the outcome on stderr, exit 0', async () => {
    const wid = id('run');
    const res = await sk(['workflow', 'run', 'summarize', '--input', JSON.stringify(TEXT), '--id', wid, '--timeout', '30s']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(SUMMARY);
    expect(res.stderr).toMatch(new RegExp(`^✔ completed {2}summarize {2}${wid} {2}run ${UUID} {2}\\d`));
  });

  it('scripts: run --json | jq -e .output succeeds for a completed run and fails for a failed one', async () => {
    const ok = `${SKEIN_BIN} workflow run summarize --json --input '${JSON.stringify(TEXT)}'`;
    const bad = `${SKEIN_BIN} workflow run onboard --json --input '{"name":"x"}'`;
    const env = { SKEIN_API_URL: stack.url };
    if (await hasJq()) {
      const good = await shell(`${ok} | jq -e '.output.readability.value == "easy" and .status == "completed"'`, env);
      expect(good).toMatchObject({ code: 0, stdout: 'true\n' });
      const failed = await shell(`${bad} | jq -e .output; echo "exit codes: \${PIPESTATUS[*]}"`, env);
      expect(failed.stdout).toBe('null\nexit codes: 1 1\n');
    } else {
      const good = await shell(ok, env);
      expect(JSON.parse(good.stdout)).toMatchObject({ status: 'completed', output: SUMMARY });
      const failed = await shell(bad, env);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({ status: 'failed', output: null });
    }
  });

  it('on a terminal shows a spinner while it waits and colours the outcome; NO_COLOR keeps the spinner, drops the colours', async () => {
    // `script` (util-linux) gives the command a pseudo-terminal; CI is unset because spinners stay quiet under CI, TERM set because colours need a known terminal.
    const cmd = `${SKEIN_BIN} workflow run summarize --input '${JSON.stringify(TEXT)}'`;
    const env = { SKEIN_API_URL: stack.url };
    const tty = await shell(`env -u CI -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color script -qec ${JSON.stringify(cmd)} /dev/null`, env);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain('running summarize');
    expect(tty.stdout).toContain('\x1b[32mcompleted\x1b[39m');
    const plain = await shell(`env -u CI -u FORCE_COLOR TERM=xterm-256color NO_COLOR=1 script -qec ${JSON.stringify(cmd)} /dev/null`, env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('running summarize');
    expect(plain.stdout).toMatch(/✔ completed {2}summarize /);
    // eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
    expect(plain.stdout).not.toMatch(/\x1b\[[\d;]*m/);
  });

  it('reads the input from standard input with "-", by alias', async () => {
    const res = await sk(['workflow', 'run', 'onboard_customer', '-', '--json'], { stdin: JSON.stringify(ADA) });
    expect(res.code).toBe(0);
    const body = JSON.parse(res.stdout);
    expect(body).toMatchObject({ status: 'completed', input: ADA, output: { customerId: 'ada-lovelace', welcome: 'Bienvenue, Ada Lovelace!' } });
    expect(Object.keys(body)).toEqual(['workflowId', 'runId', 'input', 'output', 'trace', 'status', 'error', 'errorDetails', 'failure']);
  });

  it('a failed workflow exits 1 with the failure on stderr and nothing on stdout', async () => {
    const res = await sk(['workflow', 'run', 'onboard', '--input', '{"name":"x"}']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^✖ failed {2}onboard /);
    expect(res.stderr).toMatch(/^error: \w+: Invalid input of workflow "onboard": email/m);
  });

  it('an API error exits 3 as "error: <type>: <message>" (and the error body on stdout with --json)', async () => {
    const res = await sk(['workflow', 'run', 'nope']);
    expect(res).toEqual({ code: 3, stdout: '', stderr: `error: UnsupportedWorkflowError: Workflow "nope" is not registered in catalog "${stack.catalog}"\n` });
    const json = await sk(['workflow', 'run', 'nope', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      error: 'UnsupportedWorkflowError',
      message: `Workflow "nope" is not registered in catalog "${stack.catalog}"`,
      workflowId: null,
    });
  });

  it('usage errors exit 2 before any request', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['workflow', 'run', 'summarize', '--input', '{bad'], /^error: --input is not valid JSON/],
      [['workflow', 'run', 'summarize', '--timeout', 'soon'], /^error: option '--timeout <duration>' argument 'soon' is invalid/],
      [['workflow', 'run'], /^error: missing required argument 'name'/],
      [['workflow', 'bogus'], /^error: unknown command 'bogus'/],
      [['workflow', 'status', 'x', '--url', 'garbage'], /^error: --url \(or SKEIN_API_URL\) "garbage" is not a URL/],
    ];
    for (const [args, stderr] of cases) {
      const res = await sk(args, { env: { SKEIN_API_URL: 'http://127.0.0.1:9' } });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(stderr);
    }
  });

  it('an unreachable API exits 3 with one line', async () => {
    const port = await freePort();
    const res = await skein(`http://127.0.0.1:${port}`, ['workflow', 'status', 'x']);
    expect(res).toEqual({ code: 3, stdout: '', stderr: `error: Cannot reach the Skein API at http://127.0.0.1:${port} (ECONNREFUSED)\n` });
  });
});

describe('start, status, result, input, list, history, trace, reset', () => {
  const wid = id('inspect');
  let runId: string;

  beforeAll(async () => {
    const res = await sk(['workflow', 'start', 'summarize', '--id', wid, '--input', JSON.stringify(TEXT)]);
    expect(res.code).toBe(0);
    const m = new RegExp(`^workflowId {2}${wid}\nrunId {7}(${UUID})\n$`).exec(res.stdout);
    expect(m, res.stdout).not.toBeNull();
    runId = m![1]!;
    await until(async () => (await stack.get(`/workflow/${wid}/status`)).body.status === 'completed');
  });

  it('status prints the run as aligned fields; --json prints the status response', async () => {
    const res = await sk(['workflow', 'status', wid]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        `^workflowId {2}${wid}\nrunId {7}${runId}\nworkflow {4}summarize\nstatus {6}✔ completed\nstarted {5}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\nclosed {6}\\d{4}-.+\nduration {4}[\\d.]+ m?s\n$`,
      ),
    );
    const json = await sk(['workflow', 'status', wid, '--run', runId, '--json']);
    expect(JSON.parse(json.stdout)).toEqual((await stack.get(`/workflow/${wid}/runs/${runId}/status`)).body);
  });

  it('result prints the output; input prints the input', async () => {
    const result = await sk(['workflow', 'result', wid]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(SUMMARY);
    // The outcome line on stderr names the workflow, the run and how long it took.
    expect(result.stderr).toMatch(new RegExp(`^✔ completed {2}summarize {2}${wid} {2}run ${runId} {2}[\\d.]+ m?s\n$`));
    const json = await sk(['workflow', 'result', wid, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ v: '2', workflowId: wid, runId, status: 'completed', output: SUMMARY });
    const input = await sk(['workflow', 'input', wid, '--run', runId]);
    expect(input.code).toBe(0);
    expect(JSON.parse(input.stdout)).toEqual(TEXT);
  });

  it('list prints a table filtered by name and status (continued is accepted for continued_as_new)', async () => {
    const res = await sk(['workflow', 'list', '--name', 'summarize', '--limit', '100']);
    expect(res.code).toBe(0);
    const [head, ...rows] = res.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^WORKFLOW ID +TYPE +STATUS +STARTED +DURATION +RUN ID$/);
    expect(rows.find((r) => r.startsWith(wid))).toMatch(
      new RegExp(`^${wid} +summarize +✔ completed +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +[\\d.]+ m?s +${runId}$`),
    );
    expect(rows.every((r) => / summarize /.test(r))).toBe(true);

    const completed = JSON.parse((await sk(['workflow', 'list', '--status', 'completed', '--name', 'summarize', '--limit', '100', '--json'])).stdout);
    expect(completed.runs.some((r: { workflowId: string }) => r.workflowId === wid)).toBe(true);
    expect(completed.runs.every((r: { status: string }) => r.status === 'completed')).toBe(true);
    const continued = await sk(['workflow', 'list', '--status', 'continued', '--json']);
    expect(continued.code).toBe(0);
    expect(JSON.parse(continued.stdout).runs.filter((r: { status: string }) => r.status !== 'continued_as_new')).toEqual([]);
  });

  it('history prints every event of the run, one a line, across pages', async () => {
    const { historyLength } = (await stack.get(`/workflow/${wid}/history?pageSize=1`)).body.workflow;
    expect(historyLength).toBeGreaterThan(20);
    const res = await sk(['workflow', 'history', wid]);
    expect(res.code).toBe(0);
    expect(printedEventIds(res.stdout)).toEqual(oneTo(historyLength));
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ {3}ID {2}TIME {10}EVENT +DETAIL$/);
    expect(lines[1]).toMatch(/^ {4}1 {2}\d\d:\d\d:\d\d\.\d{3} {2}WORKFLOW_EXECUTION_STARTED +summarize$/);
    // The API's stepName.
    expect(lines.find((l) => l.includes('ACTIVITY_TASK_SCHEDULED'))).toMatch(/ACTIVITY_TASK_SCHEDULED +countWords$/);
    expect(lines.at(-1)).toMatch(/WORKFLOW_EXECUTION_COMPLETED$/);
    const json = JSON.parse((await sk(['workflow', 'history', wid, '--json'])).stdout);
    expect(json.runId).toBe(runId);
    expect(json.events.map((e: { eventId: number }) => e.eventId)).toEqual(oneTo(historyLength));
    // A run that does not exist: its error on stderr, nothing on stdout (no table header), with or without --follow.
    for (const extra of [[], ['--follow']]) {
      const missing = await sk(['workflow', 'history', 'no-such-run', ...extra]);
      expect(missing.code).toBe(3);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/WorkflowNotFoundError/);
    }
  });

  it('trace draws the tree with status marks, kinds and durations, child workflows nested', async () => {
    const res = await sk(['workflow', 'trace', wid]);
    expect(res.code).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^✔ summarize {2}workflow {2}[\d.]+ m?s$/),
      expect.stringMatching(/^├─ ✔ countWords {2}step {2}\d+ ms$/),
      expect.stringMatching(/^├─ ✔ extractKeywords {2}step {2}\d+ ms$/),
      expect.stringMatching(/^└─ ✔ judgeReadability {2}evaluator {2}\d+ ms$/),
    ]);
    const onboard = await sk(['workflow', 'run', 'onboard', '--json', '--input', JSON.stringify(ADA)]);
    const tree = await sk(['workflow', 'trace', JSON.parse(onboard.stdout).workflowId]);
    expect(tree.stdout).toMatch(/^├─ ✔ welcome {2}child workflow {2}.+\n│ {2}├─ ✔ titleCase {2}step .+\n│ {2}└─ ✔ composeWelcome {2}step /m);
  });

  it('reset starts a new run after the step, which completes; terminate of a closed run exits 3', async () => {
    const res = await sk(['workflow', 'reset', wid, '--step', 'countWords', '--reason', 'cli test']);
    expect(res.code).toBe(0);
    const m = new RegExp(`^reset after step countWords: new run {2}${wid} {2}run (${UUID})\n$`).exec(res.stdout);
    expect(m, res.stdout).not.toBeNull();
    const newRun = m![1]!;
    expect(newRun).not.toBe(runId);
    await until(async () => (await stack.get(`/workflow/${wid}/runs/${newRun}/status`)).body.status === 'completed');
    const result = await sk(['workflow', 'result', wid, '--run', newRun, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ runId: newRun, status: 'completed', output: SUMMARY });

    const terminate = await sk(['workflow', 'terminate', wid, '--run', newRun]);
    expect(terminate.code).toBe(3);
    expect(terminate.stderr).toMatch(/^error: WorkflowExecutionAlreadyCompletedError: /);
  });
});

describe('skein catalog', () => {
  it('lists the workflows with aliases; by name or alias shows activities and the input schema', async () => {
    const res = await sk(['catalog']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^catalog ${stack.catalog} {2}published \\d{4}-`));
    expect(res.stdout).toMatch(/^onboard +onboard_customer +2 +Onboards a customer/m);
    expect(res.stdout).toMatch(/^summarize +- +3 +Counts words/m);
    expect(res.stdout).toMatch(/^welcome +greet_customer +1 /m);

    const one = await sk(['catalog', 'onboard_customer']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^onboard\n/);
    expect(one.stdout).toMatch(/^ {2}step +normalizeEmail +onboard#normalizeEmail$/m);
    expect(one.stdout).toMatch(/^ {2}evaluator +scoreLead +onboard#scoreLead$/m);
    expect(one.stdout).toContain('input schema\n  {\n');
    expect(one.stdout).toContain('"email": {');

    const json = await sk(['catalog', '--json']);
    // `catalogs` lists every catalog of the shared dev server, which other files publish and retire meanwhile:
    // the two answers are compared on this file's own entry.
    type Doc = { catalogs: Array<{ catalog: string }> };
    const own = (doc: Doc) => ({ ...doc, catalogs: doc.catalogs.filter((c) => c.catalog === stack.catalog) });
    const fromCli = own(JSON.parse(json.stdout) as Doc);
    expect(fromCli).toEqual(own((await stack.get('/workflow/catalog')).body as Doc));
    expect(fromCli.catalogs).toEqual([expect.objectContaining({ catalog: stack.catalog, live: true })]);
    const missing = await sk(['catalog', 'nope']);
    expect(missing).toMatchObject({ code: 3, stderr: `error: UnsupportedWorkflowError: Workflow "nope" is not registered in catalog "${stack.catalog}"\n` });
  });
});

describe('skein validate', () => {
  it('is validate-workflow-package: same output and exit codes', async () => {
    const direct = await shell(`${JSON.stringify(process.execPath)} packages/validator/dist/cli.js fixtures/projects/invalid --format json`, {});
    const res = await sk(['validate', 'fixtures/projects/invalid', '--format', 'json']);
    expect(res.code).toBe(1);
    expect(direct.code).toBe(1);
    expect(JSON.parse(res.stdout)).toEqual(JSON.parse(direct.stdout));
    // `--json`, which every skein command takes, is the validator's `--format json`.
    const json = await sk(['validate', 'fixtures/projects/invalid', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(direct.stdout));

    expect((await sk(['validate', 'examples'])).code).toBe(0);
    const usage = await sk(['validate', '--format', 'nope']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown --format "nope"');
    const help = await sk(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: skein validate \[dir\] \[options\]/);
  });
});
