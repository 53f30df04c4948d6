/**
 * `validate-workflow-package --cache` as users run it (the built bin): a run answered from the cache loads neither
 * @babel/parser nor the analysis core nor the rules (only discovery's recorder of file-system answers) (each module the process loads is logged by a module hook), an
 * edit inside a function body loads them to re-derive that one file, and every run prints what a run without the
 * cache prints.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO, 'packages/validator/bin/validate-workflow-package.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skein-bin-cache-'));
const hook = path.join(tmp, 'log-loads.mjs');
fs.writeFileSync(
  hook,
  `import { registerHooks } from 'node:module';\nimport { appendFileSync } from 'node:fs';\nregisterHooks({ load(url, context, next) { appendFileSync(process.env.LOAD_LOG, url + '\\n'); return next(url, context); } });\n`,
);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the bin on `dir`; returns its output and every module URL it loaded. */
function run(dir: string, ...args: string[]) {
  const log = path.join(tmp, `loads-${Math.random().toString(36).slice(2)}.txt`);
  fs.writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', hook, BIN, dir, '--format', 'json', ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, LOAD_LOG: log },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded: fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/**
 * The analysis among the loaded modules: the parser, discovery (but its recorder of file-system answers,
 * `@skein/discovery/observations`, a leaf of Node built-ins that the fast path replays) and the rules.
 */
const analysis = (loaded: string[]) =>
  loaded.filter(
    (url) => /@babel\/parser|@babel\/types|packages\/discovery\/|\/dist\/rules\//.test(url) && !/packages\/discovery\/dist\/observations\.js$/.test(url),
  );

describe('validate-workflow-package --cache (bin)', () => {
  it('answers an unchanged project without loading the analysis, and re-derives an edited file', () => {
    const dir = path.join(tmp, 'project');
    fs.mkdirSync(path.join(dir, 'src/flows/greet'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bin-cache', version: '1.0.0', type: 'module' }));
    const workflowFile = path.join(dir, 'src/flows/greet/workflow.js');
    const workflow = (greeting: string) =>
      `import { workflow } from '@skein/core';\nimport { hello } from './steps.js';\n\nexport default workflow({\n  name: 'greet',\n  fn: async ({ who }) => hello({ who: '${greeting} ' + who }),\n});\n`;
    fs.writeFileSync(workflowFile, workflow('hi'));
    fs.writeFileSync(
      path.join(dir, 'src/flows/greet/steps.js'),
      `import { step } from '@skein/core';\n\nexport const hello = step({ name: 'hello', fn: async ({ who }) => who });\n`,
    );
    const cache = ['--cache-location', path.join(tmp, 'cache.json')];

    const plain = run(dir);
    const cold = run(dir, ...cache);
    expect(analysis(cold.loaded).length).toBeGreaterThan(0);
    const warm = run(dir, ...cache);
    expect([warm.status, warm.stdout, warm.stderr]).toEqual([plain.status, plain.stdout, plain.stderr]);
    expect(analysis(warm.loaded)).toEqual([]);

    fs.writeFileSync(workflowFile, workflow('hello'));
    const edited = run(dir, ...cache);
    expect([edited.status, edited.stdout]).toEqual([run(dir).status, run(dir).stdout]);
    expect(analysis(edited.loaded).some((url) => url.includes('@babel/parser'))).toBe(true);
    expect(analysis(run(dir, ...cache).loaded)).toEqual([]);
  });
});
