/**
 * A project's compile folders from its tsconfig with `extends` followed (tsconfig.ts), and the layout they decide:
 * a project whose `rootDir`/`outDir` come from a base config is judged from its sources, once.
 */
import { describe, expect, it } from 'vitest';
import { compilerDirs } from '../src/tsconfig.js';
import { discoverFixture, rel } from './helpers.js';
import { memoryFileSystem } from './memfs.js';

const dirs = (files: Record<string, string>) => compilerDirs(memoryFileSystem({ '/p/package.json': '{}', ...files }), '/p');

describe('compilerDirs', () => {
  it('follows a relative extends; path options are relative to the config that sets them', () => {
    expect(
      dirs({ '/p/tsconfig.json': '{ "extends": "./cfg/base.json" }', '/p/cfg/base.json': '{ "compilerOptions": { "rootDir": "../src", "outDir": "out" } }' }),
    ).toStrictEqual({
      rootDir: '/p/src',
      outDir: '/p/cfg/out',
    });
  });

  it('adds .json to an extends that lacks it, and lets the project’s own options win', () => {
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": "./base", "compilerOptions": { "outDir": "dist" } }',
        '/p/base.json': '{ "compilerOptions": { "rootDir": "lib", "outDir": "build" } }',
      }),
    ).toStrictEqual({
      rootDir: '/p/lib',
      outDir: '/p/dist',
    });
  });

  it('follows a chain of bases and an array of bases, later ones winning', () => {
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": ["./a.json", "./b.json"] }',
        '/p/a.json': '{ "compilerOptions": { "rootDir": "a-src", "outDir": "a-out" } }',
        '/p/b.json': '{ "extends": "./c.json" }',
        '/p/c.json': '{ "compilerOptions": { "outDir": "c-out" } }',
      }),
    ).toStrictEqual({ rootDir: '/p/a-src', outDir: '/p/c-out' });
  });

  it('finds a base in node_modules: a path inside a package, or the package’s tsconfig.json, from any folder up', () => {
    const base = '{ "compilerOptions": { "rootDir": "../../../src", "outDir": "../../../dist" } }';
    expect(
      dirs({ '/p/tsconfig.json': '{ "extends": "@org/tsconfig/base.json" }', '/node_modules/@org/tsconfig/base.json': base.replaceAll('../../../', '/p/') }),
    ).toStrictEqual({ rootDir: '/p/src', outDir: '/p/dist' });
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": "shared-config" }',
        '/p/node_modules/shared-config/tsconfig.json': '{ "compilerOptions": { "outDir": "../../out" } }',
      }),
    ).toStrictEqual({
      rootDir: undefined,
      outDir: '/p/out',
    });
  });

  it('reads bases written as JSONC, and adds .json only to a name without it', () => {
    expect(
      dirs({ '/p/tsconfig.json': '{\n  // shared\n  "extends": "./base.json",\n}\n', '/p/base.json': '{ /* out */ "compilerOptions": { "outDir": "o", }, }' }),
    ).toStrictEqual({ rootDir: undefined, outDir: '/p/o' });
    expect(dirs({ '/p/tsconfig.json': '{ "extends": "./base.json" }', '/p/base.json.json': '{ "compilerOptions": { "outDir": "o" } }' })).toStrictEqual({
      rootDir: undefined,
      outDir: undefined,
    });
  });

  it('takes a base above the project by its relative path, not from node_modules', () => {
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": "../base.json" }',
        '/base.json': '{ "compilerOptions": { "outDir": "above" } }',
        '/p/base.json': '{ "compilerOptions": { "outDir": "beside" } }',
      }),
    ).toStrictEqual({
      rootDir: undefined,
      outDir: '/above',
    });
  });

  it('skips entries of an extends array that are not strings', () => {
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": [3, null, ["./a.json"], "./b.json"] }',
        '/p/a.json': '{ "compilerOptions": { "rootDir": "a" } }',
        '/p/b.json': '{ "compilerOptions": { "outDir": "b" } }',
      }),
    ).toStrictEqual({
      rootDir: undefined,
      outDir: '/p/b',
    });
  });

  it('gives up on a package base found in no node_modules folder up to the root, and on a chain longer than 32 configs', () => {
    expect(dirs({ '/p/tsconfig.json': '{ "extends": "missing-config", "compilerOptions": { "rootDir": "r" } }' })).toStrictEqual({
      rootDir: '/p/r',
      outDir: undefined,
    });
    const chain: Record<string, string> = { '/p/tsconfig.json': '{ "extends": "./c1.json" }' };
    for (let i = 1; i < 40; i++) chain[`/p/c${i}.json`] = `{ "extends": "./c${i + 1}.json" }`;
    chain['/p/c40.json'] = '{ "compilerOptions": { "outDir": "deep" } }';
    expect(dirs(chain)).toStrictEqual({ rootDir: undefined, outDir: undefined });
    chain['/p/c20.json'] = '{ "extends": "./c21.json", "compilerOptions": { "outDir": "mid" } }';
    expect(dirs(chain)).toStrictEqual({ rootDir: undefined, outDir: '/p/mid' });
    // The 32nd config read (tsconfig.json, then c1 … c31) counts; the 33rd does not.
    chain['/p/c20.json'] = '{ "extends": "./c21.json" }';
    chain['/p/c31.json'] = '{ "extends": "./c32.json", "compilerOptions": { "rootDir": "last" } }';
    chain['/p/c32.json'] = '{ "extends": "./c33.json", "compilerOptions": { "outDir": "beyond" } }';
    expect(dirs(chain)).toStrictEqual({ rootDir: '/p/last', outDir: undefined });
  });

  it('contributes nothing for a missing config, a base that cannot be found, a cycle, or values that are not strings', () => {
    expect(dirs({})).toStrictEqual({ rootDir: undefined, outDir: undefined });
    expect(dirs({ '/p/tsconfig.json': '{ "extends": "./missing.json", "compilerOptions": { "outDir": "o" } }' })).toStrictEqual({
      rootDir: undefined,
      outDir: '/p/o',
    });
    expect(
      dirs({
        '/p/tsconfig.json': '{ "extends": "./a.json" }',
        '/p/a.json': '{ "extends": "./tsconfig.json", "compilerOptions": { "rootDir": 1, "outDir": "o" } }',
      }),
    ).toStrictEqual({ rootDir: undefined, outDir: '/p/o' });
    expect(dirs({ '/p/tsconfig.json': '{ "extends": 3 }' })).toStrictEqual({ rootDir: undefined, outDir: undefined });
    expect(dirs({ '/p/tsconfig.json': '[1]' })).toStrictEqual({ rootDir: undefined, outDir: undefined });
  });
});

describe('a project whose folders come from a base config', () => {
  it('is judged from its sources: the workflow is found once, in lib/, and build/ is skipped', async () => {
    const m = await discoverFixture('tsconfig-extends');
    expect(m.diagnostics).toEqual([]);
    expect(m.workflows.map((w) => `${w.name} ${rel(m, w.file)}`)).toEqual(['hello lib/hello/workflow.ts']);
  });
});
