/**
 * Malicious or broken packages (never a crash, a hang or a read outside the package): symlinks
 * leaving the package, symlink loops, syntax errors, enormous and binary files, malformed package.json,
 * hostile package names. Each yields findings and exit code 1, never an exception.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/run.js';
import { validate } from '../src/index.js';
import { summarize } from './helpers.js';

let tmp: string;

const PKG = {
  name: 'fx-safety',
  version: '1.0.0',
  type: 'module',
  exports: { '.': './index.js' },
  skein: { workflows: { expose: true } },
  peerDependencies: { '@skein/core': '0.1.0' },
  files: ['index.js', 'hello'],
};
const WORKFLOW =
  "import { workflow } from '@skein/core';\nimport { greet } from './steps.js';\nexport default workflow({ name: 'hello', fn: async (i) => greet(i) });\n";
const STEPS = "import { step } from '@skein/core';\nexport const greet = step({ name: 'greet', fn: async (i) => i });\n";

/** Writes a package under the temp dir; `files` maps relative paths to contents. */
function makePackage(name: string, files: Record<string, string>, pkg: unknown = PKG): string {
  const root = path.join(tmp, name);
  const all: Record<string, string> = {
    'package.json': typeof pkg === 'string' ? pkg : JSON.stringify(pkg, null, 2),
    'index.js': "export { default as hello } from './hello/workflow.js';\n",
    'hello/workflow.js': WORKFLOW,
    'hello/steps.js': STEPS,
    'hello/workflow.d.ts': 'export {};\n',
    'hello/steps.d.ts': 'export {};\n',
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

async function exitCode(dir: string): Promise<number> {
  return run([dir, '--format', 'json'], { stdout: () => {}, stderr: () => {}, cwd: tmp });
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-safety-')));
  fs.mkdirSync(path.join(tmp, 'secret'), { recursive: true });
  fs.writeFileSync(
    path.join(tmp, 'secret/steps.js'),
    "import { step } from '@skein/core';\nexport const leaked = step({ name: 'leaked', fn: async () => 1 });\nexport default 'a secret';\n",
  );
  fs.writeFileSync(path.join(tmp, 'secret/helper.js'), "import fs from 'node:fs';\nexport const h = fs;\n");
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('symlinks and paths leaving the package', () => {
  it('does not follow a steps file symlinked outside the package', async () => {
    const root = makePackage('symlink-file', {});
    fs.rmSync(path.join(root, 'hello/steps.js'));
    fs.symlinkSync(path.join(tmp, 'secret/steps.js'), path.join(root, 'hello/steps.js'));
    const report = await validate(root);
    expect(summarize(report)).toContain('fs/outside-package hello/steps.js:1:1');
    expect(report.diagnostics.some((d) => d.ruleId === 'steps/named-exports-only')).toBe(false);
    expect(report.manifest.workflows[0]?.activities.map((a) => a.name)).toEqual([]);
    expect(report.diagnostics.some((d) => d.file.startsWith(path.join(tmp, 'secret')))).toBe(false);
    expect(await exitCode(root)).toBe(1);
  });

  it('does not walk into a directory symlinked outside the package', async () => {
    const root = makePackage('symlink-dir', {});
    fs.symlinkSync(path.join(tmp, 'secret'), path.join(root, 'hello/steps'));
    const report = await validate(root);
    expect(summarize(report)).toContain('fs/outside-package hello/steps:1:1');
    expect(report.diagnostics.some((d) => d.file.startsWith(path.join(tmp, 'secret')))).toBe(false);
  });

  it('does not follow a relative import that leaves the package', async () => {
    const root = makePackage('dotdot', {
      'hello/workflow.js': WORKFLOW.replace(
        "import { greet } from './steps.js';",
        "import { greet } from './steps.js';\nimport { h } from '../../secret/helper.js';",
      ),
    });
    const report = await validate(root);
    expect(summarize(report)).toEqual(['fs/outside-package hello/workflow.js:3:19']);
    expect(report.diagnostics[0]?.message).toContain('leaves the package');
  });

  it('survives a symlink loop', async () => {
    const root = makePackage('loop', {});
    fs.symlinkSync(root, path.join(root, 'hello/again'));
    fs.symlinkSync(path.join(root, 'hello/self'), path.join(root, 'hello/self'));
    const report = await validate(root);
    expect(report.manifest.workflows.map((w) => w.name)).toEqual(['hello']);
    expect(report.diagnostics.every((d) => d.severity === 'warning' || d.ruleId.startsWith('fs/'))).toBe(true);
  });
});

describe('dependencies', () => {
  it('does not treat a node_modules symlink to a directory without package.json as a dependency', async () => {
    const root = makePackage('evil-dependency', {
      'hello/workflow.js': WORKFLOW.replace(
        "import { greet } from './steps.js';",
        "import { greet } from './steps.js';\nimport { h } from 'evil/secret/helper.js';",
      ),
    });
    fs.mkdirSync(path.join(root, 'node_modules'), { recursive: true });
    fs.symlinkSync(tmp, path.join(root, 'node_modules/evil'), 'dir');
    const report = await validate(root);
    // secret/helper.js imports node:fs: had it been read, workflow/no-node-modules would report it.
    expect(summarize(report)).toEqual([]);
  });
});

describe('broken files', () => {
  it('reports a syntax error in workflow.js once, with its position', async () => {
    const root = makePackage('syntax', {
      'hello/workflow.js': "import { workflow } from '@skein/core';\nexport default workflow({ name: 'hello', fn: async (i) => { return i +; } });\n",
    });
    const report = await validate(root);
    const syntax = report.diagnostics.filter((d) => d.ruleId === 'parse/syntax-error');
    expect(syntax).toHaveLength(1);
    expect(syntax[0]).toMatchObject({ line: 2 });
    expect(await exitCode(root)).toBe(1);
  });

  it('still judges what a recovered syntax error leaves inside a function (an `export default` there is walked, not skipped)', async () => {
    // Babel recovers `export` inside a function; the walk that skips function bodies is only for error-free files.
    const steps =
      "import { step } from '@skein/core';\nexport const greet = step({ name: 'greet', fn: async (i) => i });\nfunction later() {\n  export default step({ name: 'late', fn: async (i) => i });\n}\n";
    const root = makePackage('recovered-export', { 'hello/steps.js': steps });
    const report = await validate(root);
    const found = report.diagnostics.filter((d) => d.file.endsWith('steps.js')).map((d) => `${d.ruleId} ${d.line}`);
    expect(found).toContain('parse/syntax-error 4');
    expect(found).toContain('steps/named-exports-only 4');
  });

  it('does not parse an enormous file and reports it once', async () => {
    const root = makePackage('huge', { 'hello/steps.js': STEPS + `// ${'x'.repeat(3 * 1024 * 1024)}\n` });
    const started = performance.now();
    const report = await validate(root);
    expect(performance.now() - started).toBeLessThan(5_000);
    const large = report.diagnostics.filter((d) => d.ruleId === 'fs/file-too-large');
    expect(large.map((d) => path.relative(root, d.file))).toEqual(['hello/steps.js']);
  });

  it('handles binary garbage in a steps file', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    const root = makePackage('binary', { 'hello/steps.js': garbage });
    const report = await validate(root);
    expect(report.errorCount).toBeGreaterThan(0);
    expect(report.diagnostics.some((d) => d.ruleId === 'parse/syntax-error')).toBe(true);
  });

  it('handles a malformed package.json', async () => {
    const root = makePackage('bad-json', {}, '{ "name": "x", ');
    const report = await validate(root);
    expect(Array.isArray(report.diagnostics)).toBe(true);
    expect(await exitCode(root)).toBeLessThan(2);
  });

  it('never uses a hostile package name as a path', async () => {
    const root = makePackage('hostile-name', {}, { ...PKG, name: '../../../../escape' });
    const before = new Set(fs.readdirSync(os.tmpdir()));
    const report = await validate(root);
    expect(report.manifest.workflows.map((w) => w.name)).toEqual(['hello']);
    expect(fs.existsSync(path.resolve(os.tmpdir(), '../escape'))).toBe(false);
    const leftovers = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('skein-validate-') && !before.has(n));
    expect(leftovers).toEqual([]);
  });

  it('never executes package code', async () => {
    const marker = path.join(tmp, 'executed');
    const root = makePackage('side-effects', {
      'hello/steps.js': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\n${STEPS}`,
      'index.js': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport { default as hello } from './hello/workflow.js';\n`,
    });
    await validate(root);
    expect(fs.existsSync(marker)).toBe(false);
  });
});
