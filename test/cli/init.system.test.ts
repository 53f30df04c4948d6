import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '@skein/dev-server';
import { packWorkspace, useTarballs } from '../support/packed.js';
import { repoRoot } from '../support/stack.js';
import { removeProjectDir } from '../support/project-dirs.js';

// A user's first day, in a folder outside the repository: scaffold, install the packed @skein packages, build,
// validate, test, pack, and run the example with `skein dev`.
const createSkein = path.join(repoRoot, 'packages/create-skein/bin/create-skein.js');
const env = {
  ...process.env,
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}`,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_prefer_offline: 'true',
  NO_COLOR: '1',
};
let tmp: string;
let tarballs: Record<string, string>;

/** The files docs/writing-packages.md shows before "The authoring API": a bold `path` line, then the file in a fenced block. */
function pageRecipe(): Record<string, string> {
  const page = readFileSync(path.join(repoRoot, 'docs/writing-packages.md'), 'utf8');
  const section = page.slice(0, page.indexOf('## The authoring API'));
  return Object.fromEntries([...section.matchAll(/^\*\*`([^`]+)`\*\*\n\n```\w*\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));
}

function run(cwd: string, cmd: string, args: string[]): SpawnSyncReturns<string> {
  const res = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res;
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'skein-init-'));
  tarballs = packWorkspace(await mkdtemp(path.join(tmpdir(), 'skein-packs-')));
}, 120_000);
afterAll(async () => {
  await removeProjectDir(tmp);
  await rm(path.dirname(Object.values(tarballs ?? {})[0] ?? tmp), { recursive: true, force: true });
});

describe('skein init, outside the repository', () => {
  it('refuses a folder holding files (naming them) and a name npm refuses, with exit code 2', async () => {
    const taken = path.join(tmp, 'taken');
    run(tmp, 'node', [createSkein, 'taken', '--no-install']);
    await writeFile(path.join(taken, 'notes.txt'), 'mine');
    const again = spawnSync('node', [createSkein, 'taken', '--no-install'], { cwd: tmp, env, encoding: 'utf8' });
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/taken is not empty: it would overwrite .*package\.json.*--force/);
    const bad = spawnSync('node', [createSkein, 'bad', '--name', 'Bad Name', '--no-install'], { cwd: tmp, env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/invalid package name "Bad Name": name can only contain URL-friendly characters/);
    expect(existsSync(path.join(tmp, 'bad'))).toBe(false);
  });

  it('asks for the folder and the name only on a terminal', async () => {
    // On a terminal (a pseudo-terminal from util-linux `script`): the folder, then the name (default: the folder's).
    const child = spawn('script', ['-qec', `node ${createSkein} --no-install`, '/dev/null'], { cwd: tmp, env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const waitFor = (pattern: RegExp) => expect.poll(() => out, { timeout: 20_000, interval: 100 }).toMatch(pattern);
    await waitFor(/Folder for the new project\? \(my-workflows\)/);
    child.stdin.write('asked\r');
    await waitFor(/Package name\? \(asked\)/);
    child.stdin.write('\r');
    expect(await exited).toBe(0);
    expect(JSON.parse(readFileSync(path.join(tmp, 'asked', 'package.json'), 'utf8')).name).toBe('asked');

    // Without a terminal: no question; the current folder, named after it.
    const quiet = path.join(tmp, 'quiet');
    await mkdir(quiet);
    const res = spawnSync('node', [createSkein, '--no-install'], { cwd: quiet, env, encoding: 'utf8', input: 'ignored\n' });
    expect(res.status).toBe(0);
    expect(res.stdout).not.toContain('?');
    expect(JSON.parse(readFileSync(path.join(quiet, 'package.json'), 'utf8')).name).toBe('quiet');
  });

  it('keeps the files when the install fails (registry unreachable) and names the command to run again, exit 1', () => {
    const offline = { ...env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', npm_config_loglevel: 'silent' };
    const res = spawnSync('node', [createSkein, 'offline', '--package-manager', 'npm'], { cwd: tmp, env: offline, encoding: 'utf8', timeout: 120_000 });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('error: npm install failed; the files are written. Run it again: cd offline && npm install');
    expect(existsSync(path.join(tmp, 'offline', 'src/greet/workflow.ts'))).toBe(true);
  }, 120_000);

  it('scaffolds a workflow package, the recipe of docs/writing-packages.md, that builds, validates with no warning, passes its tests and packs what it should', () => {
    const dir = path.join(tmp, 'my-workflows');
    run(tmp, 'node', [createSkein, 'my-workflows', '--package', '--no-install']);
    // docs/writing-packages.md shows the scaffolder's files: each one it shows is the file written, and is what gets built here.
    const recipe = pageRecipe();
    expect(Object.keys(recipe)).toEqual(expect.arrayContaining(['package.json', 'tsconfig.json', 'src/index.ts', 'src/welcome/workflow.ts']));
    for (const [file, text] of Object.entries(recipe)) {
      expect(readFileSync(path.join(dir, file), 'utf8'), `docs/writing-packages.md's ${file}`).toBe(text);
      writeFileSync(path.join(dir, file), text);
    }
    useTarballs(dir, tarballs);
    run(dir, 'npm', ['install']);
    run(dir, 'npm', ['run', 'build']);
    const validate = spawnSync('npm', ['run', 'validate'], { cwd: dir, env, encoding: 'utf8' });
    expect(validate.stdout).toContain('No problems');
    expect(validate.status).toBe(0);
    // Its in-process tests (the engine tests are the project's, above: the same files).
    expect(run(dir, 'npm', ['test', '--', 'test/welcome.test.ts']).stdout).toMatch(/Tests\s+4 passed/);
    const [pack] = JSON.parse(run(dir, 'npm', ['pack', '--dry-run', '--json']).stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = pack!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/welcome/workflow.js', 'dist/welcome/steps.js']),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.tsbuildinfo'))).toEqual([]);
    const pkgText = readFileSync(path.join(dir, 'package.json'), 'utf8');
    const pkg = JSON.parse(pkgText);
    expect(pkg.scripts.prepublishOnly).toContain('validate-workflow-package . --package --max-warnings 0');
    // A package without its expose flag fails its own validate script: --package judges it as a package.
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, skein: undefined }, null, 2));
    const unexposed = spawnSync('npm', ['run', 'validate'], { cwd: dir, env, encoding: 'utf8' });
    // The next test serves this package: its package.json back as scaffolded.
    writeFileSync(path.join(dir, 'package.json'), pkgText);
    expect(unexposed.status).toBe(1);
    expect(unexposed.stdout).toContain('package/not-exposed');
  }, 240_000);
  it('scaffolds a project that builds, validates with no warning, passes its own tests, and serves its workflow and the package under skein dev, reloading on a package rebuild', async () => {
    const dir = path.join(tmp, 'my-flows');
    const init = run(tmp, 'node', [repoRoot + '/packages/cli/bin/skein.js', 'init', 'my-flows', '--no-install']);
    expect(init.stdout).toMatch(/Created project my-flows\. Next:\n {2}cd my-flows\n {2}npm install\n {2}npm run dev/);
    useTarballs(dir, tarballs);
    run(dir, 'npm', ['install']);
    run(dir, 'npm', ['run', 'build']);
    const validate = spawnSync('npx', ['validate-workflow-package', '.', '--max-warnings', '0'], { cwd: dir, env, encoding: 'utf8' });
    expect(validate.stdout).toContain('No problems');
    expect(validate.status).toBe(0);
    // Its own tests: in-process, then on an ephemeral dev server with @skein/testing (mocked step, replay).
    const test = run(dir, 'npm', ['test']);
    expect(test.stdout).toContain('test/engine.test.ts');
    expect(test.stdout).toMatch(/Tests\s+7 passed/);

    // The package author's loop (docs/package-dev-loop.md): the host depends on the package folder, skein dev
    // serves both, and a rebuild of the package reloads the worker.
    const pkgDir = path.join(tmp, 'my-workflows');
    run(dir, 'npm', ['install', '../my-workflows']);
    const [apiPort, temporalPort] = [await freePort(), await freePort()];
    const child = spawn('npx', ['skein', 'dev', '--temporal-port', String(temporalPort), '--port', String(apiPort)], {
      cwd: dir,
      env: { ...env, TEMPORAL_ADDRESS: '', SKEIN_LOG_PRETTY: '0' },
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    const waitFor = (pattern: RegExp) =>
      vi.waitFor(
        () => {
          if (!pattern.test(out) || child.exitCode !== null) throw new Error(`skein dev: no ${pattern} in:\n${out}`);
        },
        { timeout: 120_000, interval: 250 },
      );
    const runWorkflow = async (workflowName: string) => {
      const res = await fetch(`http://127.0.0.1:${apiPort}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName, input: {} }),
      });
      return res.json();
    };
    try {
      await waitFor(/Skein is up/);
      expect(await runWorkflow('greet')).toMatchObject({ status: 'completed', output: { message: 'Hello, world.', tone: { value: 'friendly' } } });
      expect(await runWorkflow('welcome')).toMatchObject({ status: 'completed', output: { message: 'Welcome, world.' } });
      const steps = path.join(pkgDir, 'src/welcome/steps.ts');
      writeFileSync(steps, readFileSync(steps, 'utf8').replace('`Welcome, ${name}.`', '`Welcome back, ${name}.`'));
      run(pkgDir, 'npm', ['run', 'build']);
      // One line per reload, naming what changed: here the package's compiled step.
      await waitFor(/"changed":\[[^\]]*my-workflows\/dist\/welcome\/steps\.js[^\n]*reloaded in/);
      await expect
        .poll(() => runWorkflow('welcome'), { timeout: 60_000, interval: 100 })
        .toMatchObject({ status: 'completed', output: { message: 'Welcome back, world.' } });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
    }
  }, 300_000);
});
