/**
 * The TypeScript fixture project (fixtures/typescript): src/ layout, `.js`-suffixed imports,
 * nested src/shared/steps and src/shared/evaluators, a local wrapper factory `evalWorkflow({ name })` forwarding
 * to workflow(), evaluators made by `verify({ name })`, tsconfig rootDir src → outDir dist and the committed tsc
 * output in dist/. It is judged exactly: every definition once, from the sources, with positions in the .ts files,
 * and no finding; and the same from dist/ when src/ is gone (a production image).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discover, nodeFileSystem, type FileSystem, type Manifest } from '@skein/discovery';
import { validate } from '../src/index.js';
import { REPO } from './helpers.js';

const PROJECT = path.join(REPO, 'fixtures/typescript');

/** Every definition of a manifest as `kind name file:line:column`, files relative to the root. */
function definitions(m: Manifest): string[] {
  const rel = (f: string) => path.relative(m.root, f);
  return [
    ...m.workflows.map((w) => `workflow ${w.name} ${rel(w.file)}:${w.line}:${w.column}`),
    ...m.workflows.flatMap((w) => w.activities.map((a) => `${a.kind} ${a.name} ${rel(a.file)}:${a.line}:${a.column} (of ${w.name})`)),
    ...m.sharedActivities.map((a) => `shared ${a.kind} ${a.name} ${rel(a.file)}:${a.line}:${a.column}`),
  ];
}

describe('a TypeScript project with its compiled dist/ beside it', () => {
  it('discovers every definition once, from src/, with positions in the .ts sources', async () => {
    const m = await discover(PROJECT, { ceiling: PROJECT });
    expect(m.diagnostics).toEqual([]);
    expect(definitions(m)).toEqual([
      'workflow simple_eval src/judge/workflow.ts:4:16',
      'workflow summarize_text src/summarize/workflow.ts:9:16',
      'evaluator strict src/judge/evaluators.ts:3:23 (of simple_eval)',
      'step summarize src/summarize/steps.ts:3:26 (of summarize_text)',
      'shared step normalize src/shared/steps/tools.ts:3:26',
      'shared evaluator long_enough src/shared/evaluators/length.ts:3:27',
    ]);
    expect(m.workflows.map((w) => w.activityTypes)).toEqual([
      ['simple_eval#long_enough', 'simple_eval#normalize', 'simple_eval#strict'],
      ['summarize_text#long_enough', 'summarize_text#normalize', 'summarize_text#summarize'],
    ]);
  });

  it('validates with zero findings (no false error from TypeScript syntax, enum, factories or test files)', async () => {
    const report = await validate(PROJECT);
    expect(report.diagnostics).toEqual([]);
    // The repository's own node_modules holds an exposed workspace package (fixtures/packages); the project's own:
    expect(report.manifest.workflows.filter((w) => w.package === null).map((w) => w.name)).toEqual(['simple_eval', 'summarize_text']);
  });
});

describe('the same project shipped as dist/ only (src/ deleted)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-ts-dist-'));
  for (const entry of ['package.json', 'tsconfig.json', 'dist']) cpSync(path.join(PROJECT, entry), path.join(dir, entry), { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('discovers the same definitions from dist/', async () => {
    const m = await discover(dir, { ceiling: dir });
    expect(m.diagnostics).toEqual([]);
    expect(definitions(m).map((d) => d.replace(/ \S+:\d+:\d+/, ''))).toEqual([
      'workflow simple_eval',
      'workflow summarize_text',
      'evaluator strict (of simple_eval)',
      'step summarize (of summarize_text)',
      'shared step normalize',
      'shared evaluator long_enough',
    ]);
    expect(m.workflows.map((w) => path.relative(dir, w.file))).toEqual(['dist/judge/workflow.js', 'dist/summarize/workflow.js']);
  });

  it('validates with zero findings', async () => {
    const report = await validate(dir);
    expect(report.diagnostics).toEqual([]);
    expect(report.manifest.workflows).toHaveLength(2);
  });
});

describe('one analysis pass', () => {
  it('reads every file at most once for discovery and every rule together', async () => {
    const reads = new Map<string, number>();
    const counting: FileSystem = {
      ...nodeFileSystem,
      readFile: (file) => {
        reads.set(file, (reads.get(file) ?? 0) + 1);
        return nodeFileSystem.readFile(file);
      },
    };
    const report = await validate(PROJECT, { fs: counting, mode: 'project' });
    expect(report.diagnostics).toEqual([]);
    const sources = [...reads.keys()].filter((f) => f.startsWith(path.join(PROJECT, 'src')));
    expect(sources.length).toBe(8); // every source, helpers included; the test file is never looked at
    expect(reads.has(path.join(PROJECT, 'src/judge/workflow.test.ts'))).toBe(false);
    expect([...reads].filter(([, n]) => n > 1)).toEqual([]);
  });
});
