/**
 * The `validate-workflow-package` bin as users run it (the built package): the command runs under the validator's V8
 * flags (see packages/validator/src/thread-limits.ts), prints its report and exits with its code.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO, 'packages/validator/bin/validate-workflow-package.js');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8' });

describe('validate-workflow-package (bin)', () => {
  it('prints the findings and exits 1 on errors', () => {
    const r = run('fixtures/validator/reexport/cycle/invalid', '--format', 'json');
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as { diagnostics: { ruleId: string; line: number }[]; summary: { errorCount: number } };
    expect(report.diagnostics.map((d) => `${d.ruleId}:${d.line}`)).toEqual(['reexport/cycle:4']);
    expect(report.summary.errorCount).toBe(1);
  });

  it('exits 0 on a valid package and 2 on a usage error, with the message on stderr', () => {
    expect(run('fixtures/validator/reexport/cycle/valid').status).toBe(0);
    const bad = run('fixtures/does-not-exist');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('does not exist');
    expect(bad.stdout).toBe('');
  });
});
