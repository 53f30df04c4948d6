import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectPackageManager, packageNameProblems, scaffold, ScaffoldError, skeinVersion } from '../src/index.js';

let tmp: string;
beforeEach(async () => void (tmp = await mkdtemp(path.join(tmpdir(), 'create-skein-'))));
afterEach(async () => rm(tmp, { recursive: true, force: true }));

const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; engines: { node: string } };

describe('scaffold', () => {
  it('writes a project named after its folder, with dotfiles restored and the Skein version filled in', async () => {
    const dir = path.join(tmp, 'my-flows');
    const result = await scaffold({ dir, kind: 'project', install: false });
    expect(result).toMatchObject({ dir, name: 'my-flows', install: 'skipped', installCommand: 'npm install' });
    expect(result.files).toEqual(
      expect.arrayContaining([
        '.gitignore',
        '.github/workflows/ci.yml',
        'package.json',
        'tsconfig.json',
        'src/greet/workflow.ts',
        'src/greet/steps.ts',
        'src/greet/evaluators.ts',
        'src/shared/steps/shout.ts',
        'test/greet.test.ts',
      ]),
    );
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.name).toBe('my-flows');
    expect(pkg.dependencies['@skein/core']).toBe(`^${own.version}`);
    // npm warns at install on a Node.js Skein does not run on.
    expect(pkg.engines).toEqual({ node: own.engines.node });
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['dev', 'build', 'test', 'validate']));
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toMatch(/^# my-flows/);
    expect(skeinVersion()).toBe(own.version);
  });

  it('writes a publishable package: exports with types, declarations, peer dependencies, the expose flag, files, prepublishOnly', async () => {
    const dir = path.join(tmp, 'pkg');
    await scaffold({ dir, kind: 'package', name: '@acme/greetings', install: false });
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: '@acme/greetings',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      files: ['dist'],
      skein: { workflows: { expose: true } },
      peerDependencies: { '@skein/core': `^${own.version}`, zod: expect.any(String) },
    });
    expect(pkg.scripts.prepublishOnly).toContain('validate-workflow-package');
    expect(JSON.parse(readFileSync(path.join(dir, 'tsconfig.json'), 'utf8')).compilerOptions.declaration).toBe(true);
    expect(existsSync(path.join(dir, 'src/index.ts'))).toBe(true);
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toContain('the authors of @acme/greetings');
  });

  it('refuses a folder holding files without force, naming what would be overwritten, and writes nothing', async () => {
    await writeFile(path.join(tmp, 'package.json'), '{"name":"mine"}');
    await mkdir(path.join(tmp, 'src'));
    const err = await scaffold({ dir: tmp, kind: 'project', name: 'x', install: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScaffoldError);
    expect((err as Error).message).toMatch(/is not empty: it would overwrite package\.json; .*--force/);
    expect(readFileSync(path.join(tmp, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
    expect(existsSync(path.join(tmp, 'tsconfig.json'))).toBe(false);
  });

  it('names what a non-empty folder holds when nothing would be overwritten; .git alone does not count', async () => {
    await writeFile(path.join(tmp, 'notes.txt'), 'keep');
    await expect(scaffold({ dir: tmp, kind: 'project', name: 'x', install: false })).rejects.toThrow(/it holds notes\.txt/);
    const clean = path.join(tmp, 'clean');
    await mkdir(path.join(clean, '.git'), { recursive: true });
    await expect(scaffold({ dir: clean, kind: 'project', name: 'x', install: false })).resolves.toMatchObject({ name: 'x' });
  });

  it('refuses a path that is a file, even with force', async () => {
    await writeFile(path.join(tmp, 'file'), 'x');
    await expect(scaffold({ dir: path.join(tmp, 'file'), kind: 'project', name: 'x', install: false, force: true })).rejects.toThrow(/is a file, not a folder/);
  });

  it('overwrites with force and keeps unrelated files', async () => {
    await writeFile(path.join(tmp, 'package.json'), '{}');
    await writeFile(path.join(tmp, 'notes.txt'), 'keep');
    await scaffold({ dir: tmp, kind: 'project', name: 'forced', install: false, force: true });
    expect(JSON.parse(readFileSync(path.join(tmp, 'package.json'), 'utf8')).name).toBe('forced');
    expect(readFileSync(path.join(tmp, 'notes.txt'), 'utf8')).toBe('keep');
  });

  it("refuses a name npm would refuse, with npm's own rule, before writing anything", async () => {
    const dir = path.join(tmp, 'x');
    await expect(scaffold({ dir, kind: 'project', name: 'My Flows', install: false })).rejects.toThrow(
      /invalid package name "My Flows": .*(capital|URL-friendly)/,
    );
    await expect(scaffold({ dir: path.join(tmp, 'Bad'), kind: 'project', install: false })).rejects.toThrow(
      /taken from the folder name; choose one with --name/,
    );
    expect(existsSync(dir)).toBe(false);
    expect(packageNameProblems('@acme/ok-name')).toEqual([]);
    expect(packageNameProblems('.hidden')[0]).toMatch(/period/);
  });

  it('keeps the files and reports the command to run again when the install fails (registry unreachable)', async () => {
    const dir = path.join(tmp, 'offline');
    const saved = { ...process.env };
    Object.assign(process.env, {
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_fetch_retries: '0',
      npm_config_offline: 'false',
      npm_config_loglevel: 'silent',
    });
    try {
      const result = await scaffold({ dir, kind: 'project', install: true, packageManager: 'npm' });
      expect(result).toMatchObject({ install: 'failed', installCommand: 'npm install' });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    expect(existsSync(path.join(dir, 'src/greet/workflow.ts'))).toBe(true);
    expect(existsSync(path.join(dir, 'package.json'))).toBe(true);
  }, 60_000);

  it('takes the package manager from the one running it', () => {
    expect(detectPackageManager('pnpm/9.1.0 npm/? node/v24.15.0 linux x64')).toBe('pnpm');
    expect(detectPackageManager('npm/11.6.0 node/v24.15.0')).toBe('npm');
    expect(detectPackageManager('')).toBe('npm');
  });
});
