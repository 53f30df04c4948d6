import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateTemporal } from '@skein/dev-server';
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
});
