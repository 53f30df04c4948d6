/**
 * Package layouts: a packed tarball's extracted contents, and dependencies installed the way pnpm lays
 * them out (a symlink into a `.pnpm` store), hoisted (an ancestor's `node_modules`) or nested.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../src/index.js';
import { fixture, summarize } from './helpers.js';

let tmp: string;

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-layouts-')));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

const FS_DEPENDENCY = {
  'package.json': JSON.stringify({ name: 'left-pad-fs', version: '1.0.0', type: 'module', exports: './index.js' }),
  'index.js': "import { statSync } from 'node:fs';\nexport const pad = (s) => (statSync ? ' ' + s : s);\n",
};

/** A project whose workflow imports `left-pad-fs`; returns its root. */
function project(name: string): string {
  const root = path.join(tmp, name);
  write(root, {
    'package.json': JSON.stringify({ name, private: true, type: 'module' }),
    'hello/workflow.js':
      "import { workflow } from '@skein/core';\nimport { pad } from 'left-pad-fs';\nexport default workflow({ name: 'hello', fn: async (i) => pad(i) });\n",
  });
  return root;
}

describe('a packed tarball', () => {
  it('gives the same findings as the package directory', async () => {
    const dir = fixture('steps/named-exports-only/invalid');
    const out = path.join(tmp, 'pack');
    fs.mkdirSync(out);
    execFileSync('npm', ['pack', dir, '--pack-destination', out, '--silent'], { cwd: out, stdio: 'ignore' });
    const tgz = fs.readdirSync(out).find((f) => f.endsWith('.tgz')) as string;
    execFileSync('tar', ['-xzf', path.join(out, tgz), '-C', out]);
    const fromTarball = await validate(path.join(out, 'package'));
    const fromDirectory = await validate(dir);
    expect(summarize(fromTarball)).toEqual(summarize(fromDirectory));
    expect(summarize(fromTarball)).toHaveLength(3);
  });
});

describe('dependency layouts (package rule 12 follows them all)', () => {
  it('pnpm: node_modules/<name> is a symlink into node_modules/.pnpm', async () => {
    const root = project('pnpm');
    const store = path.join(root, 'node_modules/.pnpm/left-pad-fs@1.0.0/node_modules/left-pad-fs');
    write(store, FS_DEPENDENCY);
    fs.symlinkSync(store, path.join(root, 'node_modules/left-pad-fs'), 'dir');
    const report = await validate(root);
    expect(summarize(report)).toEqual(['workflow/no-node-modules hello/workflow.js:2:21']);
    expect(report.diagnostics[0]?.message).toContain('node_modules/left-pad-fs/index.js → fs');
  });

  it('hoisted: the dependency is in an ancestor node_modules', async () => {
    const mono = path.join(tmp, 'mono');
    write(path.join(mono, 'node_modules/left-pad-fs'), FS_DEPENDENCY);
    const root = path.join(mono, 'packages/app');
    fs.mkdirSync(path.dirname(root), { recursive: true });
    fs.renameSync(project('hoisted-app'), root);
    const report = await validate(root);
    expect(summarize(report)).toEqual(['workflow/no-node-modules hello/workflow.js:2:21']);
  });

  it('a dependency that offers a workflow-bundle condition is resolved through it', async () => {
    const root = project('bundle-condition');
    write(path.join(root, 'node_modules/left-pad-fs'), {
      ...FS_DEPENDENCY,
      'package.json': JSON.stringify({
        name: 'left-pad-fs',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { import: './index.js', 'skein-workflow-bundle': './safe.js' } },
      }),
      'safe.js': 'export const pad = (s) => " " + s;\n',
    });
    expect(summarize(await validate(root))).toEqual([]);
  });
});

describe('a project (no expose flag)', () => {
  it('checks its own workflows but not its build output in dist/, as discovery does', async () => {
    const root = path.join(tmp, 'project-with-dist');
    const bad = "import { workflow } from '@skein/core';\nexport default workflow({ name: 'hello', fn: async () => process.env.X });\n";
    write(root, {
      'package.json': JSON.stringify({ name: 'app', private: true, type: 'module' }),
      'hello/workflow.js': bad,
      'dist/hello/workflow.js': bad,
    });
    const report = await validate(root);
    expect(summarize(report)).toEqual(['workflow/no-node-globals hello/workflow.js:2:58']);
    expect(report.manifest.workflows.map((w) => w.file)).toEqual([path.join(root, 'hello/workflow.js')]);
  });
});
