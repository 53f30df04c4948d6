import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { freePort, locateTemporal } from '@skein/dev-server';
import { repoRoot } from '../support/stack.js';

const rootPkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string>; workspaces: string[] };
const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n'));
const binDir = path.join(repoRoot, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${binDir}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };

describe('package.json scripts and bins work from a clone', () => {
  it('every file a root script names exists and every program it runs is installed', () => {
    for (const [name, script] of Object.entries(rootPkg.scripts)) {
      for (const command of script.split('&&').map((c) => c.trim().split(/\s+/))) {
        const [program, ...args] = command;
        if (program === 'node') expect(existsSync(path.join(repoRoot, args[0]!)), `${name}: ${args[0]}`).toBe(true);
        else if (program !== 'npm') expect(existsSync(path.join(binDir, program!)), `${name}: ${program}`).toBe(true);
        for (const arg of args) if (/\.(json|mjs|js|ts)$/.test(arg)) expect(existsSync(path.join(repoRoot, arg)), `${name}: ${arg}`).toBe(true);
        if (program === 'npm' && args[0] === 'run') expect(rootPkg.scripts[args[1]!], `${name}: npm run ${args[1]}`).toBeDefined();
      }
    }
  });

  it("every workspace package's bin is a committed file, linked into node_modules/.bin", () => {
    const packages = execFileSync('npm', ['query', '.workspace'], { cwd: repoRoot, encoding: 'utf8', env });
    const bins = (JSON.parse(packages) as Array<{ path: string; bin?: Record<string, string> }>).flatMap((p) =>
      Object.entries(p.bin ?? {}).map(([name, target]) => ({ name, file: path.join(p.path, target) })),
    );
    expect(bins.map((b) => b.name).sort()).toEqual(expect.arrayContaining(['skein', 'validate-workflow-package']));
    for (const { name, file } of bins) {
      expect(tracked.has(path.relative(repoRoot, file)), `${name} -> ${file} is committed`).toBe(true);
      expect(realpathSync(path.join(binDir, name))).toBe(realpathSync(file));
    }
  });

  it('npx skein and npx validate-workflow-package run the built CLIs', () => {
    const skein = spawnSync('npx', ['--no-install', 'skein', '--help'], { cwd: repoRoot, encoding: 'utf8', env });
    expect(skein.status).toBe(0);
    expect(skein.stdout).toContain('Usage: skein');
    const validate = spawnSync('npx', ['--no-install', 'validate-workflow-package', 'examples'], { cwd: repoRoot, encoding: 'utf8', env });
    expect(validate.status).toBe(0);
  }, 60_000);

  it('npm run temporal:install prints the path of a working temporal binary', async () => {
    const temporal = await locateTemporal();
    const res = spawnSync('npm', ['run', '--silent', 'temporal:install'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...env, TEMPORAL_CLI_PATH: temporal.path },
    });
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toBe(temporal.path);
  }, 120_000);

  it('npm run dev serves the examples', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'skein-npm-dev-'));
    const [apiPort, temporalPort] = [await freePort(), await freePort()];
    const child = spawn('npm', ['run', 'dev', '--', '--temporal-port', String(temporalPort), '--data-dir', dataDir, '--no-watch'], {
      cwd: repoRoot,
      env: { ...env, PORT: String(apiPort), TEMPORAL_ADDRESS: '', SKEIN_LOG_PRETTY: '0' },
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    try {
      await vi.waitFor(
        () => {
          if (!/Skein is up/.test(out) || child.exitCode !== null) throw new Error(`npm run dev did not come up:\n${out}`);
        },
        { timeout: 150_000, interval: 250 },
      );
      const res = await fetch(`http://127.0.0.1:${apiPort}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'welcome', input: { name: 'ada' } }),
      });
      expect(await res.json()).toMatchObject({ status: 'completed', output: { message: 'Welcome, Ada!' } });
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 200_000);
});
