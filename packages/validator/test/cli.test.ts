/**
 * The `validate-workflow-package` command through its testable `run(argv, io)`: the four formats, the
 * exit codes (0 clean, 1 findings, 2 usage only), `--max-warnings`, `--quiet`, `--package` / `--project`.
 */
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/run.js';
import { allRuleMetas } from '../src/index.js';
import { FIXTURES, fixture } from './helpers.js';

/** Every rule id of the analysis (the core's and the validator's), sorted. */
const RULE_IDS = allRuleMetas.map((m) => m.id);

async function cli(argv: string[], cwd = FIXTURES): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

const INVALID = 'steps/named-exports-only/invalid';
const VALID = 'steps/named-exports-only/valid';
const WARN_ONLY = 'packaging/type-declarations/invalid';

describe('stylish (default)', () => {
  it('groups findings by file with position, severity, message, rule id, hint and a summary; exit 1', async () => {
    const { code, stdout } = await cli([INVALID]);
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`${INVALID}/hello/steps.js`);
    expect(lines[1]).toBe('  4:1  error    Default export in a steps file; steps and evaluators must be named exports.  steps/named-exports-only');
    expect(lines[2]).toMatch(/^\s+hint: Write `export const myStep = step/);
    // The summary, then each rule that fired with its public documentation page (from package.json's repository).
    const tail = stdout.trimEnd().split('\n').slice(-4);
    expect(tail.slice(0, 3)).toEqual(['✖ 3 errors, 0 warnings', '', 'Rules:']);
    expect(tail[3]).toMatch(
      /^ {2}steps\/named-exports-only {2}https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/main\/docs\/rules\/steps\/named-exports-only\.md$/,
    );
    expect(stdout).not.toContain('\u001b[');
  });

  it('prints a success line and exits 0 on a clean package', async () => {
    const { code, stdout } = await cli([VALID]);
    expect(code).toBe(0);
    expect(stdout).toBe('✔ No problems (1 workflow, 1 activity checked)\n');
  });

  it('colours output with --color', async () => {
    const { stdout } = await cli([INVALID, '--color']);
    expect(stdout).toContain('\u001b[31merror  \u001b[0m');
  });

  it('validates the current directory when no dir is given', async () => {
    const { code, stdout } = await cli([], fixture(INVALID));
    expect(code).toBe(1);
    expect(stdout).toContain('steps/named-exports-only');
  });
});

describe('json', () => {
  it('prints the documented schema with findings and the manifest', async () => {
    const { code, stdout } = await cli([INVALID, '--format', 'json']);
    expect(code).toBe(1);
    const out = JSON.parse(stdout);
    expect(Object.keys(out)).toEqual(['schemaVersion', 'root', 'summary', 'diagnostics', 'manifest']);
    expect(out.schemaVersion).toBe(2);
    expect(out.summary).toEqual({ errorCount: 3, warningCount: 0, workflowCount: 1, activityCount: 1 });
    expect(out.diagnostics[0]).toEqual({
      ruleId: 'steps/named-exports-only',
      severity: 'error',
      file: `${out.root}/hello/steps.js`,
      line: 4,
      column: 1,
      message: 'Default export in a steps file; steps and evaluators must be named exports.',
      hint: expect.stringContaining('export const myStep'),
      packageRule: 9,
      messageId: 'default',
      data: { role: 'steps' },
    });
    expect(out.manifest.workflows[0]).toMatchObject({ name: 'hello', activities: [{ name: 'greet', kind: 'step' }] });
    expect(out.manifest.activityTypes).toEqual(['hello#greet']);
  });
});

describe('sarif', () => {
  it('prints a SARIF 2.1.0 log with rules and located results', async () => {
    const { code, stdout } = await cli(['.', '-f', 'sarif'], fixture(INVALID));
    expect(code).toBe(1);
    const log = JSON.parse(stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toMatch(/sarif-2\.1\.0/);
    expect(log.runs).toHaveLength(1);
    const run0 = log.runs[0];
    expect(run0.tool.driver.name).toBe('validate-workflow-package');
    // Every rule of the one registry is described, fired or not; results point at theirs by index.
    const ids = run0.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(RULE_IDS);
    const index = ids.indexOf('steps/named-exports-only');
    expect(run0.tool.driver.rules[index]).toMatchObject({
      shortDescription: { text: expect.any(String) },
      defaultConfiguration: { level: 'error' },
      properties: { packageRule: 9 },
    });
    expect(run0.tool.driver.rules[ids.indexOf('fs/symlink-loop')]).toMatchObject({
      defaultConfiguration: { level: 'warning' },
      properties: { docs: 'docs/rules/fs/symlink-loop.md' },
    });
    // Each rule's help is a public page, the same file in the repository's web view (the repository field).
    const repository = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).repository.url.replace(/^git\+|\.git$/g, '');
    for (const rule of run0.tool.driver.rules) expect(rule.helpUri).toBe(`${repository}/blob/main/${rule.properties.docs}`);
    expect(run0.tool.driver.version).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
    expect(run0.results).toHaveLength(3);
    expect(run0.results[0]).toMatchObject({
      ruleId: 'steps/named-exports-only',
      ruleIndex: RULE_IDS.indexOf('steps/named-exports-only'),
      level: 'error',
      message: { text: expect.stringContaining('Default export') },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'hello/steps.js' }, region: { startLine: 4, startColumn: 1 } } }],
    });
  });

  it('uses warning level for warnings and file URIs outside the working directory', async () => {
    // A fresh empty directory: the repository (wherever it is checked out) is never inside it.
    const outside = await mkdtemp(path.join(os.tmpdir(), 'skein-sarif-cwd-'));
    const { stdout } = await cli([fixture(WARN_ONLY), '--format=sarif'], outside);
    await rm(outside, { recursive: true, force: true });
    const log = JSON.parse(stdout);
    expect(log.runs[0].results[0].level).toBe('warning');
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toMatch(
      /^file:\/\/\/.*\/packaging\/type-declarations\/invalid\/package\.json$/,
    );
  });
});

describe('github', () => {
  it('prints one workflow-command annotation per finding, hint on an escaped second line', async () => {
    const { code, stdout } = await cli(['--format', 'github'], fixture(INVALID));
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^::error file=hello\/steps\.js,line=4,col=1,title=steps\/named-exports-only::Default export in a steps file; .*%0AWrite `export const myStep/,
    );
    expect(lines.at(-1)).toBe('3 errors, 0 warnings');
  });

  it('annotates warnings as warnings', async () => {
    const { code, stdout } = await cli(['.', '--format', 'github'], fixture(WARN_ONLY));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^::warning file=package\.json,line=1,col=1,title=packaging\/type-declarations::/);
  });
});

describe('files named in a message', () => {
  // names/duplicate-activity names both definitions by file and line; the core renders them by real path.
  const DUPLICATE = 'names/duplicate-activity/invalid';

  it('are written relative to the working directory in stylish, github and sarif, as the file column is', async () => {
    const dir = fixture(DUPLICATE);
    const stylish = await cli([], dir);
    expect(stylish.stdout).toContain("evaluator 'greet' (hello/evaluators.js:3) has the same name as step 'greet' (hello/steps.js:3)");
    const github = await cli(['--format', 'github'], dir);
    expect(github.stdout).toContain("(hello/evaluators.js:3) has the same name as step 'greet' (hello/steps.js:3)");
    const sarif = await cli(['--format', 'sarif'], dir);
    expect(sarif.stdout).toContain("(hello/evaluators.js:3) has the same name as step 'greet' (hello/steps.js:3)");
    for (const out of [stylish.stdout, github.stdout, sarif.stdout]) expect(out).not.toContain(dir);
  });

  it('stay absolute outside the working directory, and whole in json', async () => {
    const dir = fixture(DUPLICATE);
    const outside = await mkdtemp(path.join(os.tmpdir(), 'skein-message-cwd-'));
    try {
      const stylish = await cli([dir], outside);
      expect(stylish.stdout).toContain(`(${path.join(dir, 'hello/steps.js')}:3)`);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
    const json = JSON.parse((await cli(['--format', 'json'], dir)).stdout) as { diagnostics: Array<{ message: string }> };
    expect(json.diagnostics[0]?.message).toContain(`(${path.join(dir, 'hello/steps.js')}:3)`);
  });
});

describe('exit codes and options', () => {
  it('exits 0 with warnings, 1 when they exceed --max-warnings', async () => {
    expect((await cli([WARN_ONLY])).code).toBe(0);
    expect((await cli([WARN_ONLY, '--max-warnings', '1'])).code).toBe(0);
    const over = await cli([WARN_ONLY, '--max-warnings', '0']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('1 warnings, more than --max-warnings 0');
  });

  it('--quiet hides warnings', async () => {
    const { code, stdout } = await cli([WARN_ONLY, '--quiet']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/^\s+\d+:\d+\s+warning/m);
    // Hidden, still counted: the summary does not call them "no problems".
    expect(stdout).toMatch(/^✔ No errors \(.*; 1 warning hidden by --quiet\)$/m);
    expect(stdout).not.toContain('No problems');
    // Every format keeps the count, so a script sees why `--max-warnings` fails the run.
    const json = JSON.parse((await cli([WARN_ONLY, '--quiet', '--format', 'json'])).stdout);
    expect(json.diagnostics).toEqual([]);
    expect(json.summary.warningCount).toBe(1);
    const strict = await cli([WARN_ONLY, '--quiet', '--format', 'github', '--max-warnings', '0']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('0 errors, 1 warning (hidden by --quiet)\n');
  });

  it.each([
    [['--format', 'xml'], 'unknown --format "xml"'],
    [['--max-warnings', 'lots'], '--max-warnings must be a non-negative integer'],
    [['--bogus'], "Unknown option '--bogus'"],
    [['a', 'b'], 'expected at most one directory'],
    [['does/not/exist'], 'does not exist or cannot be read'],
    [['--max-file-bytes', '0'], '--max-file-bytes must be at least 1'],
  ])('exits 2 on usage error %j, without a stack trace', async (argv, message) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('--package is strict: a package without the expose flag exits 1 with package/not-exposed; --project accepts it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-cli-package-'));
    try {
      const { writeFile, mkdir } = await import('node:fs/promises');
      await mkdir(path.join(dir, 'greet'));
      await writeFile(
        path.join(dir, 'package.json'),
        JSON.stringify({ name: 'flows', version: '1.0.0', type: 'module', exports: './index.js', peerDependencies: { '@skein/core': '0.1.0' } }),
      );
      await writeFile(path.join(dir, 'index.js'), "export { default as greet } from './greet/workflow.js';\n");
      await writeFile(
        path.join(dir, 'greet/workflow.js'),
        "import { workflow } from '@skein/core';\nexport default workflow({ name: 'greet', fn: async () => 1 });\n",
      );
      const strict = await cli(['.', '--package', '-f', 'json'], dir);
      expect(strict.code).toBe(1);
      expect(JSON.parse(strict.stdout).diagnostics.map((d: { ruleId: string }) => d.ruleId)).toContain('package/not-exposed');
      const project = await cli(['.', '--project', '-f', 'json'], dir);
      expect(JSON.parse(project.stdout).diagnostics.map((d: { ruleId: string }) => d.ruleId)).not.toContain('package/not-exposed');
      expect((await cli(['.', '--package', '--project'], dir)).code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a broken file is a finding (exit 1), never a usage error', async () => {
    const { code, stdout } = await cli(['.', '-f', 'json'], fixture('parse/syntax-error/invalid'));
    expect(code).toBe(1);
    expect(JSON.parse(stdout).diagnostics.map((d: { ruleId: string }) => d.ruleId)).toContain('parse/syntax-error');
  });

  it('exits 2 when the path is a file', async () => {
    const { code, stderr } = await cli([`${INVALID}/package.json`]);
    expect(code).toBe(2);
    expect(stderr).toContain('is not a directory');
  });

  it('--help prints usage and exits 0; --version prints the version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: validate-workflow-package [dir] [options]');
    expect(help.stdout).toContain('stylish (default), json, sarif or github');
    expect((await cli(['-v'])).stdout).toBe('0.1.0\n');
  });
});
