/**
 * package rule 5 edge cases on temporary packages, and the `"files"` filter that decides what is published.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedFiles } from '../src/engine/published-files.js';
import { validate } from '../src/index.js';
import { summarize } from './helpers.js';

let tmp: string;
beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skein-validator-packaging-')));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const BASE = {
  'index.js': "export { default as hello } from './hello/workflow.js';\n",
  'hello/workflow.js': "import { workflow } from '@skein/core';\nexport default workflow({ name: 'hello', fn: async (i) => i });\n",
  'hello/workflow.d.ts': 'export {};\n',
};

function pkg(name: string, json: Record<string, unknown>, files: Record<string, string> = {}): string {
  const root = path.join(tmp, name);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name, version: '1.0.0', type: 'module', exports: './index.js', skein: { workflows: { expose: true } }, ...json }, null, 2),
    ...BASE,
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

describe('packaging/core-peer-dependency', () => {
  it('reports a missing peer dependency at "name"', async () => {
    const report = await validate(pkg('no-core', {}));
    expect(summarize(report)).toEqual(['packaging/core-peer-dependency package.json:2:3']);
    expect(report.diagnostics[0]?.messageId).toBe('missing');
  });

  it('reports an optional dependency as a regular one', async () => {
    const report = await validate(pkg('optional-core', { peerDependencies: { '@skein/core': '0.1.0' }, optionalDependencies: { '@skein/core': '0.1.0' } }));
    expect(summarize(report)).toEqual(['packaging/core-peer-dependency package.json:15:5']);
    expect(report.diagnostics[0]?.data).toMatchObject({ field: 'optionalDependencies' });
  });

  it('does not apply to a project without the expose flag', async () => {
    const root = pkg('a-project', { skein: undefined });
    expect(summarize(await validate(root)).filter((l) => !l.includes('..'))).toEqual([]);
  });
});

describe('packaging/zod-peer-dependency', () => {
  it('reads import() types in declaration files', async () => {
    const root = pkg(
      'zod-import-type',
      { peerDependencies: { '@skein/core': '0.1.0' } },
      { 'hello/workflow.d.ts': "export declare const s: import('zod/v4').ZodString;\n" },
    );
    expect(summarize(await validate(root))).toEqual(['packaging/zod-peer-dependency hello/workflow.d.ts:1:32']);
  });

  it('names a regular dependency in the finding, and stays quiet when zod is a peer or only mentioned', async () => {
    const regular = pkg(
      'zod-regular',
      { peerDependencies: { '@skein/core': '0.1.0' }, dependencies: { zod: '^4' } },
      { 'hello/workflow.d.ts': "import type { z } from 'zod';\nexport declare const s: z.ZodString;\n" },
    );
    const [finding] = (await validate(regular)).diagnostics;
    expect(finding).toMatchObject({ ruleId: 'packaging/zod-peer-dependency', line: 1, column: 24 });
    expect(finding?.message).toContain('(it is a regular dependency)');
    const bare = pkg(
      'zod-missing',
      { peerDependencies: { '@skein/core': '0.1.0' } },
      { 'hello/workflow.d.ts': "import type { z } from 'zod';\nexport declare const s: z.ZodString;\n" },
    );
    expect((await validate(bare)).diagnostics[0]?.message).not.toContain('regular dependency');
    const peer = pkg('zod-peer', { peerDependencies: { '@skein/core': '0.1.0', zod: '^4' } }, { 'hello/workflow.d.ts': "import type { z } from 'zod';\n" });
    expect(summarize(await validate(peer))).toEqual([]);
    const mention = pkg(
      'zod-mention',
      { peerDependencies: { '@skein/core': '0.1.0' } },
      { 'hello/workflow.d.ts': "// validated with zod at run time\nimport type { Zodiac } from 'zodiac';\nexport {};\n" },
    );
    expect(summarize(await validate(mention))).toEqual([]);
  });

  it('ignores declaration files that are not published', async () => {
    const root = pkg(
      'zod-unpublished',
      { peerDependencies: { '@skein/core': '0.1.0' }, files: ['index.js', 'hello/*.js', 'hello/workflow.d.ts'] },
      { 'types/internal.d.ts': "import type { z } from 'zod';\n" },
    );
    expect(summarize(await validate(root))).toEqual([]);
  });
});

describe('the published files of a package without "files"', () => {
  it('leave out what the root’s .npmignore excludes, or its .gitignore when it has no .npmignore (read through the analysis file system)', async () => {
    const zodTypes = { 'types/internal.d.ts': "import type { z } from 'zod';\n" };
    const peer = { peerDependencies: { '@skein/core': '0.1.0' } };
    expect(summarize(await validate(pkg('npmignore', peer, { ...zodTypes, '.npmignore': 'types/\n' })))).toEqual([]);
    expect(summarize(await validate(pkg('gitignore', peer, { ...zodTypes, '.gitignore': 'types\n' })))).toEqual([]);
    // An .npmignore wins over the .gitignore, and a package without either publishes the file.
    expect(summarize(await validate(pkg('npmignore-first', peer, { ...zodTypes, '.npmignore': 'other\n', '.gitignore': 'types\n' })))).toEqual([
      'packaging/zod-peer-dependency types/internal.d.ts:1:24',
    ]);
    expect(summarize(await validate(pkg('no-ignore-file', peer, zodTypes)))).toEqual(['packaging/zod-peer-dependency types/internal.d.ts:1:24']);
  });
});

describe('packaging/javascript-sources and "files"', () => {
  it('honours negated "files" entries', async () => {
    const root = pkg(
      'negated-files',
      { peerDependencies: { '@skein/core': '0.1.0' }, files: ['index.js', 'hello', '!hello/evaluators.js'] },
      { 'hello/evaluators.ts': 'export const x = 1;\n', 'hello/evaluators.js': 'export const x = 1;\n' },
    );
    expect(summarize(await validate(root))).toContain('packaging/javascript-sources hello/evaluators.ts:1:1');
  });
});

describe('publishedFiles', () => {
  const root = '/p';
  const files = [
    '/p/package.json',
    '/p/index.js',
    '/p/src/a.ts',
    '/p/dist/a.js',
    '/p/dist/deep/b.js',
    '/p/dist/deep/b.d.ts',
    '/p/README.md',
    '/p/.hidden/c.js',
  ];
  it('keeps everything without a "files" field (an empty or non-array one counts as absent)', () => {
    expect(publishedFiles(root, files, {})).toEqual(files);
    expect(publishedFiles(root, files, { files: [] })).toEqual(files);
    expect(publishedFiles(root, files, { files: 'dist' })).toEqual(files);
  });
  it('matches folders, globs and negations with npm’s rules, and always keeps package.json', () => {
    expect(publishedFiles(root, files, { files: ['dist/'] })).toEqual(['/p/package.json', '/p/dist/a.js', '/p/dist/deep/b.js', '/p/dist/deep/b.d.ts']);
    expect(publishedFiles(root, files, { files: ['dist/**/*.js', 'index.js'] })).toEqual([
      '/p/package.json',
      '/p/index.js',
      '/p/dist/a.js',
      '/p/dist/deep/b.js',
    ]);
    expect(publishedFiles(root, files, { files: ['./dist', '!dist/deep'] })).toEqual(['/p/package.json', '/p/dist/a.js']);
    expect(publishedFiles(root, files, { files: ['/dist/*', '!!dist/deep/*.ts'] })).toEqual(['/p/package.json', '/p/dist/a.js', '/p/dist/deep/b.js']);
    // `*` stays inside one segment; `?` is one character; braces expand; dot folders match (as npm's file list does).
    expect(publishedFiles(root, files, { files: ['*.js', 'dist/?.js'] })).toEqual(['/p/package.json', '/p/index.js', '/p/dist/a.js']);
    expect(publishedFiles(root, files, { files: ['{src,.hidden}'] })).toEqual(['/p/package.json', '/p/src/a.ts', '/p/.hidden/c.js']);
    expect(publishedFiles(root, files, { files: ['*/c.js', 'READ'] })).toEqual(['/p/package.json', '/p/.hidden/c.js']);
  });
  it('lets a later entry win over an earlier one, and skips entries that are not strings or name nothing', () => {
    expect(publishedFiles(root, files, { files: ['!dist/deep', 'dist'] })).toEqual([
      '/p/package.json',
      '/p/dist/a.js',
      '/p/dist/deep/b.js',
      '/p/dist/deep/b.d.ts',
    ]);
    expect(publishedFiles(root, files, { files: ['dist', '!dist/deep', 'dist/deep/b.d.ts'] })).toEqual([
      '/p/package.json',
      '/p/dist/a.js',
      '/p/dist/deep/b.d.ts',
    ]);
    expect(publishedFiles(root, files, { files: [1, null, '', '/', '!', 'index.js'] })).toEqual(['/p/package.json', '/p/index.js']);
    // Only leading `!`s negate, and any run of trailing slashes is dropped.
    const odd = ['/p/package.json', '/p/a!b.js', '/p/ab.js', '/p/dist/a.js'];
    expect(publishedFiles(root, odd, { files: ['a!b.js', 'dist//'] })).toEqual(['/p/package.json', '/p/a!b.js', '/p/dist/a.js']);
    expect(publishedFiles(root, odd, { files: ['*.js', '!a!b.js'] })).toEqual(['/p/package.json', '/p/ab.js']);
    // A folder of one letter is a folder too.
    expect(publishedFiles(root, ['/p/package.json', '/p/a/b.js', '/p/ab/c.js'], { files: ['a'] })).toEqual(['/p/package.json', '/p/a/b.js']);
  });
  it('always keeps what main, browser and bin name (bin as a string or a map), written with or without ./', () => {
    expect(publishedFiles(root, files, { files: ['dist'], main: './index.js' })).toEqual([
      '/p/package.json',
      '/p/index.js',
      '/p/dist/a.js',
      '/p/dist/deep/b.js',
      '/p/dist/deep/b.d.ts',
    ]);
    expect(publishedFiles(root, files, { files: ['index.js'], browser: 'src/a.ts', bin: { x: './.hidden/c.js' } })).toEqual([
      '/p/package.json',
      '/p/index.js',
      '/p/src/a.ts',
      '/p/.hidden/c.js',
    ]);
    expect(publishedFiles(root, files, { files: ['index.js'], bin: 'README.md', main: 7 })).toEqual(['/p/package.json', '/p/index.js', '/p/README.md']);
    expect(publishedFiles(root, files, { files: ['index.js'], bin: 5, main: '', browser: null })).toEqual(['/p/package.json', '/p/index.js']);
  });
  it('without "files", leaves out what the root’s .npmignore (or .gitignore) excludes, never package.json', () => {
    expect(publishedFiles(root, files, {}, 'src/\n*.d.ts\n# a comment\n.hidden\npackage.json\n')).toEqual([
      '/p/package.json',
      '/p/index.js',
      '/p/dist/a.js',
      '/p/dist/deep/b.js',
      '/p/README.md',
    ]);
    expect(publishedFiles(root, files, {}, 'dist\n!dist/a.js\n')).toEqual(['/p/package.json', '/p/index.js', '/p/src/a.ts', '/p/README.md', '/p/.hidden/c.js']);
    // With "files", the root's ignore file does not count (npm does not read it).
    expect(publishedFiles(root, files, { files: ['src'] }, 'src\n')).toEqual(['/p/package.json', '/p/src/a.ts']);
  });
});
