/**
 * How workflow code imports workflows (package rules 3 and 4): which bare specifiers name an installed package, and
 * which imports of one are findings (a namespace or dynamic import of a workflow package, a named import of a
 * workflow from a package without the expose flag), with no finding for packages that hold no workflow, do not
 * resolve, or are not installed.
 */
import { describe, expect, it } from 'vitest';
import { discover, type Manifest } from '../src/index.js';
import { splitBareSpecifier } from '../src/imports.js';
import { memoryFileSystem } from './memfs.js';
import { EXPOSE, packageJson, workflowJs } from './tmp.js';

describe('splitBareSpecifier', () => {
  it.each([
    ['pkg', { name: 'pkg', subpath: '.' }],
    ['pkg/', { name: 'pkg', subpath: '.' }],
    ['pkg/a/b.js', { name: 'pkg', subpath: './a/b.js' }],
    ['@scope/pkg', { name: '@scope/pkg', subpath: '.' }],
    ['@scope/pkg/x', { name: '@scope/pkg', subpath: './x' }],
    ['pkg/@x', { name: 'pkg', subpath: './@x' }],
    ['./pkg', undefined],
    ['../pkg', undefined],
    ['/abs/pkg', undefined],
    ['node:fs', undefined],
    ['https://example.com/x.js', undefined],
    ['@scope', undefined],
    ['@scope/', undefined],
  ])('%s', (specifier, expected) => {
    expect(splitBareSpecifier(specifier)).toEqual(expected);
  });
});

describe('imports of installed packages in workflow code', () => {
  const installed = (name: string, json: Record<string, unknown>, index: string | undefined) => ({
    [`/p/node_modules/${name}/package.json`]: packageJson(name, json),
    ...(index !== undefined && { [`/p/node_modules/${name}/index.js`]: index }),
    [`/p/node_modules/${name}/w/workflow.js`]: workflowJs(`${name.replace('-', '_')}_flow`),
  });
  const REEXPORT = "export { default as flow } from './w/workflow.js';\nexport const helper = 1;\n";
  const discoverWith = (workflowCode: string): Promise<Manifest> =>
    discover('/p', {
      fs: memoryFileSystem({
        '/p/package.json': packageJson('app'),
        '/p/app/workflow.js': `import { workflow } from '@skein/core';\n${workflowCode}\nexport default workflow({ name: 'app', fn: async (x) => x });\n`,
        ...installed('exposed', { ...EXPOSE, exports: './index.js' }, undefined),
        ...installed('plain', { exports: './index.js' }, REEXPORT),
        ...installed('no-flows', { exports: './index.js' }, 'export const helper = 1;\n'),
        ...installed('no-entry', { exports: './gone.js' }, undefined),
      }),
      ceiling: '/p',
    });
  /** The findings, but the exposed package's own (its entry does not resolve: entry/not-found). */
  const findings = async (code: string) =>
    (await discoverWith(code)).diagnostics.filter((d) => d.ruleId !== 'entry/not-found').map((d) => `${d.ruleId} ${d.line}:${d.column}`);

  it('a namespace import of an exposed package is imports/namespace, even when its entry does not resolve', async () => {
    expect(await findings("import * as e from 'exposed';")).toEqual(['imports/namespace 2:8']);
  });

  it('a namespace import of an unflagged package is imports/namespace only when its entry exports a workflow', async () => {
    expect(await findings("import * as p from 'plain';")).toEqual(['imports/namespace 2:8']);
    expect(await findings("import * as n from 'no-flows';\nimport * as g from 'no-entry';")).toEqual([]);
  });

  it('a dynamic import() of a workflow package is imports/dynamic; of another package, or one not installed, nothing', async () => {
    expect(await findings("const p = () => import('plain');")).toEqual(['imports/dynamic 2:17']);
    expect(await findings("const n = () => [import('no-flows'), import('no-entry'), import('missing-pkg'), import('node:fs')];")).toEqual([]);
  });

  it("hints a package's workflow by name, a workflow file's by its default export", async () => {
    const hints = async (code: string) => (await discoverWith(code)).diagnostics.filter((d) => d.ruleId === 'imports/dynamic').map((d) => d.hint);
    expect(await hints("const p = () => import('plain');")).toEqual(["Import each workflow at the top of the module: import { greet } from 'plain'."]);
    expect(await hints("const w = () => import('../app/workflow.js');")).toEqual([
      "Import each workflow at the top of the module: import greet from '../app/workflow.js'.",
    ]);
  });

  it('a named import of a workflow from an unflagged package is package/no-expose-flag; of anything else, nothing', async () => {
    expect(await findings("import { flow, helper } from 'plain';")).toEqual(['package/no-expose-flag 2:10']);
    expect(await findings("import { helper } from 'no-flows';\nimport { flow } from 'no-entry';\nimport { x } from 'missing-pkg';")).toEqual([]);
  });
});
