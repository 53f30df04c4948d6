import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiServer, loadApiConfig, type ApiServer } from '@skein/api';
import { deriveCommandShapes } from '@skein/discovery';
import { spawnSkein } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';
import { eventually } from '../support/poll.js';
import { removeProjectDir } from '../support/project-dirs.js';

/**
 * `skein build` and `skein worker <buildDir>`: a build serves runs from a process that never loads the
 * validator or webpack's compiler; a build that is incomplete, edited, of another version, or whose project
 * changed is refused at start with one line.
 */
let tmp: string;
let project: string;
let buildDir: string;

async function skein(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnSkein(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** A copy of the build at `name` in the temp folder, changed by `change`. */
async function copyOfBuild(name: string, change: (dir: string) => Promise<void>): Promise<string> {
  const dir = path.join(tmp, name);
  await cp(buildDir, dir, { recursive: true });
  await change(dir);
  return dir;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skein-build-'));
  // A copy of the project (never the repository's files), resolving packages through the repo's node_modules.
  project = path.join(tmp, 'project');
  await cp(path.join(repoRoot, 'fixtures/projects/rollout/v1'), project, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(project, 'node_modules'));
  buildDir = path.join(tmp, 'build');
  const res = await skein(['build', project, '--out', buildDir]);
  expect(res.code, res.stderr).toBe(0);
  expect(res.stdout).toMatch(/^built \d+ workflow\(s\) into .+ in [\d.]+ s: build ID [0-9a-f]{24}\n$/);
}, 180_000);

afterAll(async () => {
  await removeProjectDir(tmp);
});

describe('skein build', () => {
  it('writes the bundle, manifest, definitions, catalog document and a record of them', async () => {
    const record = JSON.parse(await readFile(path.join(buildDir, 'skein-build.json'), 'utf8'));
    expect(record).toMatchObject({
      format: 1,
      projectDir: await import('node:fs').then((fs) => fs.realpathSync(project)),
      versions: { node: process.versions.node },
    });
    expect(Object.keys(record.files).sort()).toEqual(['catalog.json', 'command-shapes.json', 'definitions.json', 'manifest.json', 'workflow-bundle.js']);
    const catalog = JSON.parse(await readFile(path.join(buildDir, 'catalog.json'), 'utf8'));
    const approval = catalog.workflows.find((w: { name: string }) => w.name === 'approval');
    expect(approval.activities.map((a: { type: string }) => a.type)).toEqual(['approval#notify', 'approval#stamp']);
    expect(catalog.deployment).toEqual({ name: 'main', buildId: record.buildId });
  });

  it("records each workflow's command shape and versioning behaviour", async () => {
    const shapes = JSON.parse(await readFile(path.join(buildDir, 'command-shapes.json'), 'utf8'));
    expect(shapes).toMatchObject({ format: 1, project: 'rollout-fixture' });
    expect(Object.keys(shapes.workflows)).toEqual(expect.arrayContaining(['approval', 'quick']));
    expect(shapes.workflows.approval.versioningBehavior).toBe('pinned');
    expect(JSON.stringify(shapes.workflows.approval.shape)).toContain('"type":"approval#notify"');
    expect(Object.keys(shapes.workflows.approval.sources)).toContain('src/approval/workflow.ts');
    // Taken from the validation's own parse: the same as a discovery of their own.
    expect(shapes).toEqual(await deriveCommandShapes(project));
  });

  it('--baseline refuses an incompatible change of an auto-upgrade workflow before building; a baseline that is not a build is exit 2', async () => {
    // The deployed build, as if approval had been auto-upgrade there.
    const deployed = await copyOfBuild('deployed-auto', async (dir) => {
      const file = path.join(dir, 'command-shapes.json');
      const shapes = JSON.parse(await readFile(file, 'utf8'));
      shapes.workflows.approval.versioningBehavior = 'auto-upgrade';
      await writeFile(file, JSON.stringify(shapes));
    });
    const next = path.join(tmp, 'project-next');
    await cp(project, next, { recursive: true, filter: (src) => !src.includes(`${path.sep}.skein`) && !src.endsWith('node_modules') });
    await symlink(path.join(repoRoot, 'node_modules'), path.join(next, 'node_modules'));
    const wf = path.join(next, 'src/approval/workflow.ts');
    const code = await readFile(wf, 'utf8');
    await writeFile(
      wf,
      code
        .replace(
          '  inputSchema: z.object({ request: z.string() }),',
          "  versioningBehavior: 'auto-upgrade',\n  inputSchema: z.object({ request: z.string() }),",
        )
        .replace('    await notify({ request });', '    await notify({ request });\n    await notify({ request });'),
    );
    const out = path.join(tmp, 'build-next');
    const refused = await skein(['build', next, '--out', out, '--baseline', deployed]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('versioning/incompatible-change');
    expect(refused.stderr).toContain('Workflow "approval" is auto-upgrade');
    expect(refused.stderr).toMatch(/skein: the build is refused: 1 incompatible change\(s\) against /);
    await expect(readFile(path.join(out, 'skein-build.json'), 'utf8')).rejects.toThrow();
    const notBuild = await skein(['build', next, '--out', out, '--baseline', tmp]);
    expect(notBuild.code).toBe(2);
    expect(notBuild.stderr.trim().split('\n')).toHaveLength(1);
    expect(notBuild.stderr).toContain('not a build (no skein-build.json) and not a project (no package.json)');
  }, 120_000);

  it('refuses, before building, an output folder holding files that are not a build, or a file; the files are left as they were', async () => {
    const someone = path.join(tmp, 'someones-folder');
    await mkdir(someone, { recursive: true });
    await writeFile(path.join(someone, 'manifest.json'), '{"mine":"important"}');
    const res = await skein(['build', project, '--out', someone]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr.trim()).toBe(
      `skein: ${someone} holds files that are not a build (manifest.json), which a build would overwrite: build into a new or empty folder, or into an earlier build's`,
    );
    expect(await readFile(path.join(someone, 'manifest.json'), 'utf8')).toBe('{"mine":"important"}');
    const file = path.join(someone, 'manifest.json');
    const onFile = await skein(['build', project, '--out', file]);
    expect(onFile.code).toBe(1);
    expect(onFile.stderr).toContain(`skein: ${file} is a file: build into a new or empty folder`);
    const underFile = await skein(['build', project, '--out', path.join(file, 'build')]);
    expect(underFile.code).toBe(1);
    expect(underFile.stderr).toContain(`skein: cannot create the build folder ${path.join(file, 'build')}: ENOTDIR`);
    // A folder that cannot be created is named at once (Node's own recursive mkdir never returns for this one).
    const proc = await skein(['build', project, '--out', '/proc/skein-no-such/build']);
    expect(proc.code).toBe(1);
    expect(proc.stderr.trim()).toBe(
      "skein: cannot create the build folder /proc/skein-no-such/build: ENOENT: no such file or directory, mkdir '/proc/skein-no-such'",
    );
  });

  it('refuses an output folder inside the project code (its files would change the build ID)', async () => {
    const res = await skein(['build', project, '--out', path.join(project, 'out')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^skein: .+out is inside the project's code: build into a dot-folder/);
    expect(existsSync(path.join(project, 'out'))).toBe(false); // refused before anything is created
  });
});

describe('skein worker <buildDir>', () => {
  let api: ApiServer;
  let url: string;
  const catalog = `build-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    const address = inject('temporalAddress');
    api = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: address, PORT: '0', SKEIN_CATALOG: catalog }), {
      logger: pino({ level: 'silent' }),
    });
    url = (await api.listen()).url;
  });

  afterAll(async () => {
    await api?.close();
  });

  it('serves a run without loading the validator or webpack', async () => {
    const log = path.join(tmp, 'modules.log');
    const moduleLog = pathToFileURL(path.join(repoRoot, 'test/support/module-log.mjs')).href;
    const worker = spawnSkein(['worker', buildDir], {
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      SKEIN_CATALOG: catalog,
      SKEIN_TEST_MODULE_LOG: log,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${moduleLog}`,
    });
    try {
      await worker.waitFor(/worker serving \d+ workflow/, 60_000);
      const post = (route: string, body: unknown) =>
        fetch(url + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as any,
        }));
      // The API accepts runs once the new build is the catalog's current version (a moment after "serving").
      const started = await eventually(
        async () => {
          const answer = await post('/workflow/start', { workflowName: 'approval', input: { request: 'built' } });
          return answer.status === 404 ? undefined : answer;
        },
        30_000,
        300,
      );
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      // The signal waits for the run's first workflow task (the handler); the run then calls its step.
      await expect
        .poll(async () => (await post(`/workflow/${started.body.workflowId}/signal/decide`, { payload: { approved: true } })).status, {
          timeout: 10_000,
          interval: 200,
        })
        .toBe(202);
      const result = await eventually(
        async () => {
          const answer = (await fetch(`${url}/workflow/${started.body.workflowId}/result`).then((r) => r.json())) as { status?: string };
          return answer.status === undefined || answer.status === 'running' ? undefined : answer;
        },
        30_000,
        200,
      );
      expect(result).toMatchObject({ status: 'completed', output: { request: 'built', approved: true } });
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    const loaded = (await readFile(log, 'utf8')).split('\n');
    // The log is real: it holds the worker's own modules and Temporal's.
    expect(loaded.some((u) => u.includes('/packages/worker/dist/worker.js'))).toBe(true);
    expect(loaded.some((u) => u.includes('/@temporalio/worker/lib/worker.js'))).toBe(true);
    expect(loaded.filter((u) => u.includes('/packages/validator/'))).toEqual([]);
    expect(loaded.filter((u) => /\/webpack\/lib\/(webpack|Compiler)\.js$/.test(u) || u.includes('/@swc/'))).toEqual([]);
    // Nor the AWS SDK while S3 traces are off.
    expect(loaded.filter((u) => u.includes('/@aws-sdk/'))).toEqual([]);
  }, 120_000);

  it.each([
    ['without its record', 'no-record', (d: string) => rm(path.join(d, 'skein-build.json')), /is not a complete build: skein-build\.json is missing/],
    ['without its bundle', 'no-bundle', (d: string) => rm(path.join(d, 'workflow-bundle.js')), /is not a complete build: workflow-bundle\.js is missing/],
    [
      'with a file edited after the build',
      'edited',
      (d: string) => writeFile(path.join(d, 'manifest.json'), '{}'),
      /manifest\.json was changed after the build/,
    ],
    [
      'made by another Skein version',
      'other-version',
      async (d: string) => {
        const file = path.join(d, 'skein-build.json');
        const record = JSON.parse(await readFile(file, 'utf8'));
        await writeFile(file, JSON.stringify({ ...record, versions: { ...record.versions, skein: '0.0.1' } }));
      },
      /was built with Skein 0\.0\.1, this worker runs /,
    ],
    [
      'whose record lacks what skein build writes',
      'stripped-record',
      async (d: string) => {
        const file = path.join(d, 'skein-build.json');
        const record = JSON.parse(await readFile(file, 'utf8'));
        await writeFile(file, JSON.stringify({ format: record.format }));
      },
      /skein-build\.json lacks buildId, files, versions: it was not written by skein build, or was edited/,
    ],
  ])('refuses a build %s in one line, before contacting the engine', async (_label, name, change, message) => {
    const dir = await copyOfBuild(name, change);
    const res = await skein(['worker', dir], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
    expect(res.stderr).toMatch(/run "skein build" again/);
  });

  it("refuses a build whose project's code changed after it was made", async () => {
    const steps = path.join(project, 'src/approval/steps.ts');
    const before = await readFile(steps, 'utf8');
    await writeFile(steps, before.replace('notified about', 'notified of'));
    try {
      const res = await skein(['worker', buildDir], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
      expect(res.stderr).toMatch(/the code of .+project was changed after the build \(build ID [0-9a-f]{24}, now [0-9a-f]{24}\): run "skein build" again/);
    } finally {
      await writeFile(steps, before);
    }
  });
});
