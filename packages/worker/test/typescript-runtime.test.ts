import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '@skein/discovery';
import { bundleWorkflows, withTypeScriptSources } from '../src/bundle/bundle.js';
import { loadProject } from '../src/host/load.js';
import { typeScriptSourceFor } from '../src/host/typescript/resolve-hook.js';

const fixture = path.resolve(import.meta.dirname, '../../../fixtures/projects/ts-runtime');
const src = path.join(fixture, 'src');
const hookModule = pathToFileURL(path.resolve(import.meta.dirname, '../src/host/typescript/resolve-hook.ts')).href;
const errorModule = pathToFileURL(path.resolve(import.meta.dirname, '../src/host/typescript/load-error.ts')).href;

/**
 * Runs `body` (an ES module script) in a fresh Node process with the worker's resolve hook enabled, as the
 * worker's own process has it: vitest's module runner would otherwise transform .ts itself and prove nothing.
 * `@skein/source` resolves `@skein/core` to its TypeScript sources, which load through the same hook.
 */
async function inNode(body: string): Promise<unknown> {
  const script = `const { enableTypeScriptSources } = await import(${JSON.stringify(hookModule)});
enableTypeScriptSources();
const out = await (async () => { ${body} })();
process.stdout.write(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=@skein/source', '--input-type=module', '-e', script], { cwd: fixture });
  return JSON.parse(stdout);
}

describe('typeScriptSourceFor', () => {
  const parent = pathToFileURL(path.join(src, 'greet/workflow.ts')).href;
  it.each([
    ['./steps.js', './steps.ts'],
    ['../lib/text.js', '../lib/text.ts'],
    ['./x.mjs', './x.mts'],
    ['./x.cjs', './x.cts'],
  ])('maps %s to %s from a .ts importer', (spec, expected) => {
    expect(typeScriptSourceFor(spec, parent)).toBe(expected);
  });

  it('leaves bare specifiers, other extensions and JavaScript importers alone', () => {
    expect(typeScriptSourceFor('zod', parent)).toBeUndefined();
    expect(typeScriptSourceFor('./data.json', parent)).toBeUndefined();
    expect(typeScriptSourceFor('./steps.js', pathToFileURL(path.join(src, 'greet/workflow.js')).href)).toBeUndefined();
    expect(typeScriptSourceFor('./steps.js', undefined)).toBeUndefined();
  });
});

describe('TypeScript in the worker process (Node type stripping + resolve hook)', () => {
  it('runs a .ts step whose .js-suffixed imports name .ts files', async () => {
    const out = await inNode(`
      const { shout } = await import('./src/greet/steps.ts');
      return await shout('ada');`);
    expect(out).toBe('ADA!');
  });

  it('keeps stack traces on the .ts lines (stripping preserves positions)', async () => {
    const out = (await inNode(`
      const { failHere } = await import('./src/lib/text.ts');
      try { failHere({ reason: 'from ts' }); } catch (e) { return e.stack.split('\\n')[1]; }`)) as string;
    expect(out).toContain(`${path.join(src, 'lib/text.ts')}:17:9`);
  });

  it('reports an enum with file, line and column, and what to do', async () => {
    const out = (await inNode(`
      const { describeTypeScriptLoadError } = await import(${JSON.stringify(errorModule)});
      try { await import('./src/bad/imports-enum.ts'); return null; } catch (e) { return describeTypeScriptLoadError(e); }`)) as string;
    expect(out.startsWith(`${path.join(src, 'bad/enum.ts')}:3:1: TypeScript enum is not supported in strip-only mode.`)).toBe(true);
    expect(out).toContain('"erasableSyntaxOnly": true');
  });

  it('places an error thrown while a module loads in the project’s code: the module’s own line, or a helper’s', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-load-error-'));
    try {
      const files = {
        'package.json': '{ "name": "p", "type": "module" }',
        'throws.ts': 'const config: any = {};\nexport const value = config.a!.b;\n',
        'helper.mjs': 'export function read(c) {\n  return c.missing.value;\n}\n',
        'uses-helper.mjs': "import { read } from './helper.mjs';\nexport const value = read({});\n",
        // A dependency's frame comes first; the place named is the package's own call.
        'node_modules/dep/package.json': '{ "name": "dep", "type": "module", "main": "index.js" }',
        'node_modules/dep/index.js': 'export function check(v) {\n  if (!v) throw new Error("no value");\n}\n',
        'uses-dep.mjs': "import { check } from 'dep';\n\ncheck(undefined);\n",
      };
      await mkdir(path.join(dir, 'node_modules/dep'), { recursive: true });
      for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
      const out = (await inNode(`
        const { loadErrorLocation } = await import(${JSON.stringify(errorModule)});
        const places = [];
        for (const name of ['throws.ts', 'uses-helper.mjs', 'uses-dep.mjs']) {
          const file = ${JSON.stringify(dir)} + '/' + name;
          try { await import(${JSON.stringify(pathToFileURL(dir).href)} + '/' + name); } catch (e) { places.push(loadErrorLocation(e, file)); }
        }
        return places;`)) as unknown[];
      expect(out).toEqual([
        { file: path.join(dir, 'throws.ts'), line: 2, column: 32 },
        { file: path.join(dir, 'helper.mjs'), line: 2, column: 20 },
        { file: path.join(dir, 'uses-dep.mjs'), line: 3, column: 1 },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prefers an existing .js file over its .ts namesake, as TypeScript resolves them', async () => {
    const out = await inNode(`
      const { picked } = await import('./src/lib/prefers.ts');
      return picked;`);
    expect(out).toBe('js');
  });

  it('still reports a missing module as missing', async () => {
    const out = await inNode(`
      try { await import('./src/bad/nowhere.js'); } catch (e) { return e.code; }`);
    expect(out).toBe('ERR_MODULE_NOT_FOUND');
  });
});

describe('withTypeScriptSources (the bundle’s webpack options)', () => {
  it('widens Temporal’s .ts rule to .mts/.cts and maps .js/.mjs/.cjs imports to their sources', () => {
    const tsRule = { test: /\.ts$/, exclude: /node_modules/, use: { loader: 'swc-loader' } };
    const jsRule = { test: /\.js$/, enforce: 'pre' as const, use: ['source-map-loader'] };
    const config = withTypeScriptSources({
      resolve: { extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
      module: { rules: [jsRule, tsRule] },
    });
    expect(['a.ts', 'a.mts', 'a.cts'].every((f) => tsRule.test.test(f))).toBe(true);
    expect(tsRule.test.test('a.js')).toBe(false);
    expect(jsRule.test.test('a.ts')).toBe(false);
    expect(config.resolve?.extensionAlias).toEqual({ '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'], '.cjs': ['.cts', '.cjs'] });
    expect(config.resolve?.extensions).toEqual(['.ts', '.js', '.mts', '.cts']);
  });
});

describe('TypeScript in the workflow bundle', () => {
  function manifest(): Manifest {
    const act = { name: 'shout', exportName: 'shout', kind: 'step' as const, shared: false, file: path.join(src, 'greet/steps.ts'), line: 4, column: 14 };
    return {
      root: fixture,
      packages: [],
      filesRead: 0,
      diagnostics: [],
      workflows: [
        {
          name: 'tsGreet',
          aliases: [],
          file: path.join(src, 'greet/workflow.ts'),
          line: 7,
          column: 1,
          package: null,
          exportName: 'default',
          activities: [act],
          activityTypes: [],
        },
      ],
      sharedActivities: [],
    } as Manifest;
  }

  it('compiles .ts workflow code, follows .js-suffixed imports, stubs the .ts steps and maps to .ts sources', async () => {
    const bundle = await bundleWorkflows(await loadProject(manifest()));
    // swc reformats the generated stub module: `activityStub({ name: "shout", kind: "step" })` over several lines.
    expect(bundle.code).toMatch(/activityStub\)?\(\{\s*"?name"?: "shout",\s*"?kind"?: "step"/);
    expect(bundle.code).not.toContain('name.toUpperCase()');
    expect(bundle.code).toContain('HELLO ');
    const map = JSON.parse(
      Buffer.from(/sourceMappingURL=data:application\/json;charset=utf-8;base64,(\S+)/.exec(bundle.code)![1]!, 'base64').toString('utf8'),
    ) as { sources: string[] };
    expect(map.sources).toEqual(expect.arrayContaining([path.join(src, 'greet/workflow.ts'), path.join(src, 'lib/text.ts')]));
  }, 120_000);
});
