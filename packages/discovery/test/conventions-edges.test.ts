/**
 * Edges of the file conventions (package rule 1), through the public helpers: every source
 * extension, declaration and test files, bare extensions, companions, and the folders never walked.
 */
import { describe, expect, it } from 'vitest';
import { classifyFile, isCompanionFile, isDeclarationFile, isSkippedDirName, isTestFile, sourceStem } from '../src/index.js';

describe('classifyFile across extensions', () => {
  it.each([
    ['/p/a/workflow.ts', 'workflow'],
    ['/p/a/workflow.mts', 'workflow'],
    ['/p/a/workflow.mjs', 'workflow'],
    ['/p/a/steps.ts', 'steps'],
    ['/p/a/evaluators.mjs', 'evaluators'],
    ['/p/a/steps/x.mts', 'steps'],
    ['/p/a/evaluators/x.ts', 'evaluators'],
    ['/p/src/shared/steps/tools.ts', 'shared-steps'],
    ['/p/src/deep/shared/evaluators/judge.mjs', 'shared-evaluators'],
    ['/p/a/shared/evaluators.js', 'evaluators'],
    ['/p/shared/steps/evaluators.js', 'shared-steps'],
    ['steps/x.js', 'steps'],
    ['shared/evaluators/x.js', 'shared-evaluators'],
    ['/steps/x.js', 'steps'],
    ['C:\\p\\shared\\steps\\x.ts', 'shared-steps'],
    ['workflow.js', 'workflow'],
    ['steps.mjs', 'steps'],
    ['/shared/steps/x.js', 'shared-steps'],
    ['/shared/evaluators/x.js', 'shared-evaluators'],
    ['C:\\p/shared\\evaluators/x.ts', 'shared-evaluators'],
    ['p\\steps\\x.js', 'steps'],
    ['/p/__tests__x/workflow.js', 'workflow'],
    ['/p/x__tests__/steps.js', 'steps'],
    ['/p/notshared/steps/x.js', 'steps'],
    ['/p/shared/a/steps/x.js', 'steps'],
  ] as const)('%s → %s', (file, role) => {
    expect(classifyFile(file)).toBe(role);
  });

  it.each([
    '/p/a/.ts',
    '/p/a/steps/.js',
    '/p/a/workflow.cts',
    '/p/a/workflow.jsx',
    '/p/a/workflow.d.mts',
    '/p/a/steps.test.mjs',
    '/p/__tests__/steps/x.js',
    '/p/a/workflows.js',
    '/p/steps',
    '/p/a/steps/x.ts.bak',
    '/p/a/__tests__/workflow.js',
    'C:\\p\\__tests__\\steps.ts',
    '/',
    '',
    '/p/a/workflow.spec.ts',
  ])('%s → null', (file) => {
    expect(classifyFile(file)).toBeNull();
  });
});

describe('classifyFile asked again', () => {
  it('answers a path the same every time, also after more paths than it remembers', () => {
    const first = ['/p/a/workflow.js', '/p/a/steps/x.js', '/p/a/lib.js'].map(classifyFile);
    for (let i = 0; i <= 100_000; i++) classifyFile(`/q/${i}/shared/steps/x.js`);
    expect(['/p/a/workflow.js', '/p/a/steps/x.js', '/p/a/lib.js'].map(classifyFile)).toEqual(first);
    expect(first).toEqual(['workflow', 'steps', null]);
    expect(classifyFile('/q/100000/shared/steps/x.js')).toBe('shared-steps');
  });
});

describe('sourceStem', () => {
  it.each([
    ['workflow.ts', 'workflow'],
    ['a.b.mjs', 'a.b'],
    ['x.mts', 'x'],
    ['steps.js', 'steps'],
  ] as const)('%s → %s', (name, stem) => {
    expect(sourceStem(name)).toBe(stem);
  });

  it.each(['.ts', '.mjs', 'x.d.ts', 'x.test.ts', 'x.spec.mjs', 'x.cjs', 'x.json', 'x'])('%s → undefined', (name) => {
    expect(sourceStem(name)).toBeUndefined();
  });
});

describe('declaration, test and companion files; skipped folders', () => {
  it('declarations are .d.ts, .d.mts and .d.cts only', () => {
    expect(['a.d.ts', 'a.d.mts', 'a.d.cts', '/p/x/a.d.ts'].map(isDeclarationFile)).toEqual([true, true, true, true]);
    expect(['a.ts', 'a.d.js', 'd.ts', 'a.d.ts.map', 'a.d.tsx', 'a.d.xts', 'a.mts'].map(isDeclarationFile)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('tests are *.test.*, *.spec.* and anything under a __tests__ folder', () => {
    expect(['/p/a.test.ts', '/p/a.spec.js', '/p/__tests__/a.ts', 'C:\\p\\__tests__\\a.js', '__tests__/a.js'].map(isTestFile)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(
      ['/p/a.tests.ts', '/p/my__tests__/a.ts', '/p/__tests__.ts', '/p/test/a.ts', '/p/a.test/x.ts', '/p/a.test.d/x.ts', '/p/a.spec.js.map'].map(isTestFile),
    ).toEqual([false, false, false, false, false, false, false]);
  });

  it('companions are declarations and source maps', () => {
    expect(['a.d.ts', 'a.d.mts', 'a.d.ts.map', 'a.d.mts.map', 'a.js.map', 'a.mjs.map'].map(isCompanionFile)).toEqual([true, true, true, true, true, true]);
    expect(['a.js', 'a.ts', 'a.map', 'README.md'].map(isCompanionFile)).toEqual([false, false, false, false]);
  });

  it('node_modules, dot-folders and __tests__ are never walked; dist and src are', () => {
    expect(['node_modules', '.git', '.cache', '__tests__'].map(isSkippedDirName)).toEqual([true, true, true, true]);
    expect(['dist', 'src', 'shared', 'tests', 'node_module'].map(isSkippedDirName)).toEqual([false, false, false, false, false]);
  });
});
