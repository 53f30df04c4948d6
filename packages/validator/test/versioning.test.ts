/**
 * The versioning check through `validate-workflow-package --baseline` (its testable `run`) and `compareVersions`:
 * the golden output of each finding in the four formats, a baseline given as a build directory, and bad input
 * (not a build, another project's build, a build made before shapes were recorded).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import path from 'node:path';
import { deriveCommandShapes, SHAPES_FILE } from '@skein/discovery';
import { afterAll, describe, expect, it } from 'vitest';
import { run, type CliIo } from '../src/cli/run.js';
import { BUILD_RECORD_FILE, compareVersions, validate } from '../src/index.js';
import { FIXTURES } from './helpers.js';

const GOLDEN = path.join(path.dirname(new URL(import.meta.url).pathname), 'golden', 'versioning');
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: FIXTURES };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

/** A build directory holding only what the check reads: a record, and the baseline project's shapes unless `withShapes` is false. */
async function fakeBuild(projectDir: string, withShapes = true): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-baseline-'));
  temps.push(dir);
  writeFileSync(path.join(dir, BUILD_RECORD_FILE), JSON.stringify({ format: 1, buildId: 'x' }));
  if (withShapes) writeFileSync(path.join(dir, SHAPES_FILE), JSON.stringify(await deriveCommandShapes(projectDir)));
  return dir;
}

describe.each(['incompatible-change', 'unprovable-change'])('versioning/%s', (rule) => {
  const invalid = `versioning/${rule}/invalid`;
  const valid = `versioning/${rule}/valid`;
  const baseline = `versioning/${rule}/baseline`;

  it.each(['stylish', 'json', 'sarif', 'github'])('golden %s output against the baseline project', async (format) => {
    const { code, stdout } = await cli([invalid, '--baseline', baseline, '-f', format]);
    expect(code).toBe(rule === 'incompatible-change' ? 1 : 0);
    const portable = stdout.split(path.resolve(FIXTURES, '../..')).join('<repo>');
    await expect(portable).toMatchFileSnapshot(path.join(GOLDEN, `${rule}.${format}.txt`));
  });

  it('reports nothing for the valid project, and the same for a build directory as for the project', async () => {
    const clean = await cli([valid, '--baseline', baseline]);
    expect(clean.code).toBe(0);
    // The valid project of incompatible-change also changes a pinned workflow: information, never a finding.
    expect(clean.stderr).toBe(
      rule === 'incompatible-change'
        ? 'validate-workflow-package: note: pinned workflow "draft" changed its commands; its runs finish on the build they started on\n'
        : '',
    );
    const build = await fakeBuild(path.join(FIXTURES, baseline));
    const fromBuild = await compareVersions({ dir: path.join(FIXTURES, invalid), baseline: build });
    const fromProject = await compareVersions({ dir: path.join(FIXTURES, invalid), baseline: path.join(FIXTURES, baseline) });
    expect(fromBuild).toEqual(fromProject);
    expect(fromBuild.map((f) => [f.ruleId, f.data?.workflow])).toEqual([[`versioning/${rule}`, 'order']]);
    expect(await compareVersions({ dir: path.join(FIXTURES, valid), baseline: build })).toEqual([]);
  });
});

describe("the baseline's versioning behaviour decides", () => {
  it('an auto-upgrade workflow made pinned in the same change is still judged: its open runs move to the new build', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-pinned-now-'));
    temps.push(dir);
    cpSync(path.join(FIXTURES, 'versioning/incompatible-change/invalid'), dir, { recursive: true });
    const workflow = path.join(dir, 'order', 'workflow.js');
    const pinned = readFileSync(workflow, 'utf8').replace("versioningBehavior: 'auto-upgrade'", "versioningBehavior: 'pinned'");
    expect(pinned).toContain("versioningBehavior: 'pinned'");
    writeFileSync(workflow, pinned);
    const findings = await compareVersions({ dir, baseline: path.join(FIXTURES, 'versioning/incompatible-change/baseline') });
    expect(findings.map((f) => [f.ruleId, f.data?.workflow])).toEqual([['versioning/incompatible-change', 'order']]);
    expect(findings[0]!.message).toContain('is auto-upgrade in the baseline build');
  });
});

describe('bad input', () => {
  const project = 'versioning/incompatible-change/invalid';

  it('a baseline that is neither a build nor a project: exit 2, one line', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-not-build-'));
    temps.push(dir);
    const { code, stdout, stderr } = await cli([project, '--baseline', dir]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`validate-workflow-package: --baseline ${dir}: not a build (no skein-build.json) and not a project (no package.json)\n`);
    expect((await cli([project, '--baseline', path.join(dir, 'missing')])).stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a build of another project: exit 2, one line naming both projects', async () => {
    const build = await fakeBuild(path.join(FIXTURES, 'versioning/unprovable-change/baseline'));
    const { code, stderr } = await cli([project, '--baseline', build]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `validate-workflow-package: --baseline ${build}: a build of project "fx-versioning-unprovable-change", not of "fx-versioning-incompatible-change"\n`,
    );
  });

  it('a build made before shapes were recorded: one warning, the check skipped, the rest validated', async () => {
    const build = await fakeBuild(path.join(FIXTURES, 'versioning/incompatible-change/baseline'), false);
    const { code, stdout, stderr } = await cli([project, '--baseline', build]);
    expect(code).toBe(0);
    expect(stdout).toBe('✔ No problems (3 workflows, 6 activities checked)\n');
    expect(stderr).toBe(
      `validate-workflow-package: warning: --baseline ${build} is a build made before command shapes were recorded; the versioning check is skipped\n`,
    );
    const warnings: string[] = [];
    expect(await compareVersions({ dir: path.join(FIXTURES, project), baseline: build, onWarning: (l) => warnings.push(l) })).toEqual([]);
    expect(warnings).toHaveLength(1);
  });

  it('a shapes file of another format: exit 2, one line', async () => {
    const build = await fakeBuild(path.join(FIXTURES, 'versioning/incompatible-change/baseline'));
    writeFileSync(path.join(build, SHAPES_FILE), JSON.stringify({ format: 99, project: null, workflows: {} }));
    const { code, stderr } = await cli([project, '--baseline', build]);
    expect(code).toBe(2);
    expect(stderr).toBe(`validate-workflow-package: --baseline ${build}: ${SHAPES_FILE} has format 99, this validator reads format 1\n`);
  });
});

describe('validate({ shapes })', () => {
  it("gives every workflow's command shapes from its own parse, the same as a discovery of their own; the per-file cache stores none", async () => {
    const project = path.join(FIXTURES, 'versioning/incompatible-change/invalid');
    const expected = await deriveCommandShapes(project);
    expect(Object.keys(expected.workflows).length).toBeGreaterThan(0);
    const plain = await validate(project);
    expect(plain.shapes).toBeUndefined();
    expect((await validate(project, { shapes: true })).shapes).toEqual(expected);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-shapes-cache-'));
    temps.push(dir);
    const cache = { file: path.join(dir, 'validate.json') };
    const cold = await validate(project, { shapes: true, cache });
    expect(cold.shapes).toEqual(expected);
    expect(readFileSync(cache.file, 'utf8')).not.toContain('"shapes"');
    // Warm: no file is parsed for its findings, and the shapes are still whole.
    const warm = await validate(project, { shapes: true, cache });
    expect(warm.shapes).toEqual(expected);
    const { shapes: _cold, ...coldReport } = cold;
    const { shapes: _warm, ...warmReport } = warm;
    expect(warmReport).toEqual(coldReport);
    expect(coldReport).toEqual(plain);
  });
});
