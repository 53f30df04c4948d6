/**
 * Bad input: a TypeScript syntax error, a 50 MB file, a BOM, CRLF line ends, decorators and
 * `enum` in `.ts`, a symlink loop, an unreadable file: each is a finding at its file and line, or nothing at all when
 * the input is valid; never a crash, never a hang. (Symlink loops and unreadable files are also covered in
 * robustness.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { packageJson, tempProject } from './tmp.js';

const CORE = "import { workflow, step } from '@skein/core';\n";
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const run = (files: Record<string, string>): Promise<Manifest> =>
  discover('/p', { fs: memoryFileSystem({ '/p/package.json': packageJson('p'), ...files }), ceiling: '/p' });
const briefs = (m: Manifest) => m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(3)}:${d.line}:${d.column}`);

describe('bad input is a finding, never a crash', () => {
  it('a syntax error in a .ts file, at its line and column in the .ts source', async () => {
    const m = await run({
      '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`,
      '/p/a/steps.ts': `${CORE}export const s = step({ name: 's', fn: async (x: number) => { return x +; } });\n`,
    });
    expect(briefs(m)).toEqual(['parse/syntax-error a/steps.ts:2:73']);
    expect(m.diagnostics[0]).toMatchObject({ severity: 'error' });
    expect(m.workflows.map((w) => w.name)).toEqual(['a']);
  });

  it('a BOM and CRLF line ends: parsed, with positions as an editor shows them', async () => {
    const m = await run({
      '/p/a/workflow.js': `\uFEFF${CORE}\r\n// comment\r\nexport default workflow({ name: 'a', fn: async () => 1 });\r\n`
        .replace(/\n/g, '\r\n')
        .replace(/\r\r/g, '\r'),
    });
    expect(briefs(m)).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${w.line}:${w.column}`)).toEqual(['a 4:16']);
  });

  it('decorators, enum, namespaces and parameter properties in .ts: no finding at all', async () => {
    const m = await run({
      '/p/a/workflow.ts': `${CORE}import { s } from './steps.js';\nenum Mode { Fast = 'fast', Slow = 'slow' }\nexport default workflow({ name: 'a', fn: async (m: Mode = Mode.Fast) => s(m) });\n`,
      '/p/a/steps.ts':
        `${CORE}function logged(target: unknown, key: string) {}\nclass Service {\n  constructor(private readonly url: string) {}\n  @logged\n  call(): string { return this.url; }\n}\n` +
        `namespace Util { export const x = 1; }\nexport const s = step({ name: 's', fn: async (m: string) => new Service(m).call() + Util.x });\n`,
    });
    expect(briefs(m)).toEqual([]);
    expect(m.workflows[0]!.activities.map((a) => a.name)).toEqual(['s']);
  });

  it('a 50 MB file: fs/file-too-large, not parsed, promptly', async () => {
    const t = tempProject({ 'package.json': packageJson('p'), 'a/workflow.js': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n` });
    cleanups.push(t.cleanup);
    writeFileSync(join(t.root, 'a/steps.js'), Buffer.alloc(50 * 1024 * 1024, 'a'));
    const started = Date.now();
    const m = await discover(t.root, { ceiling: t.root });
    expect(Date.now() - started).toBeLessThan(10_000); // a bound against a hang, not a speed measurement
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(t.root.length + 1)}:${d.line}`)).toEqual(['fs/file-too-large a/steps.js:1']);
    expect(m.diagnostics[0]!.message).toContain(`is ${50 * 1024 * 1024} bytes, over the 1048576-byte cap`);
  });

  it('a symlink loop and an unreadable file are findings at their paths', async () => {
    const t = tempProject(
      { 'package.json': packageJson('p'), 'a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n` },
      { 'a/loop': '.' },
    );
    cleanups.push(t.cleanup);
    const m = await discover(t.root, { ceiling: t.root });
    expect(m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(t.root.length + 1)}`)).toEqual(['fs/symlink-loop a/loop']);
    const locked = await run({ '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`, '/p/a/steps.ts': '' });
    expect(locked.diagnostics).toEqual([]);
    const unreadable = await discover('/p', {
      fs: memoryFileSystem(
        { '/p/package.json': packageJson('p'), '/p/a/workflow.ts': `${CORE}export default workflow({ name: 'a', fn: async () => 1 });\n`, '/p/a/steps.ts': '' },
        ['/p/a/steps.ts'],
      ),
      ceiling: '/p',
    });
    expect(briefs(unreadable)).toEqual(['fs/unreadable a/steps.ts:1:1']);
  });
});
