import { describe, expect, it } from 'vitest';
import { ENTRY_CONDITIONS, resolveExportsTarget } from '../src/index.js';
import { briefs, discoverFixture, workflowSummary } from './helpers.js';

describe('resolveExportsTarget', () => {
  it("prefers the workflow-bundle conditions wherever they sit, then takes the bundler's others in the object's order", () => {
    expect(ENTRY_CONDITIONS).toEqual(['skein-workflow-bundle', 'output-workflow-bundle', 'webpack', 'import', 'module', 'browser', 'default']);
    const exp = { '.': { default: './d.js', import: './i.js', 'output-workflow-bundle': './o.js', 'skein-workflow-bundle': './s.js' } };
    expect(resolveExportsTarget(exp, '.')).toBe('./s.js');
    expect(resolveExportsTarget({ '.': { default: './d.js', import: './i.js', 'output-workflow-bundle': './o.js' } }, '.')).toBe('./o.js');
    // As Node and webpack pick: the first key the bundler's conditions hold.
    expect(resolveExportsTarget({ '.': { default: './d.js', import: './i.js' } }, '.')).toBe('./d.js');
    expect(resolveExportsTarget({ '.': { import: './i.js', default: './d.js' } }, '.')).toBe('./i.js');
    expect(resolveExportsTarget({ '.': { require: './r.cjs', default: './d.js' } }, '.')).toBe('./d.js');
    expect(resolveExportsTarget({ '.': { require: './r.cjs' } }, '.')).toBeNull();
  });

  it('accepts sugar forms, nested conditions and fallback arrays', () => {
    expect(resolveExportsTarget('./main.js', '.')).toBe('./main.js');
    expect(resolveExportsTarget({ import: './i.js' }, '.')).toBe('./i.js');
    expect(resolveExportsTarget({ '.': { import: { types: './i.d.ts', default: './i.js' } } }, '.')).toBe('./i.js');
    expect(resolveExportsTarget({ '.': ['not-relative', './b.js'] }, '.')).toBe('./b.js');
    expect(resolveExportsTarget({ './sub': './sub.js' }, '.')).toBeNull();
  });

  it('resolves subpath patterns, the longest prefix first', () => {
    const exp = { '.': './index.js', './*': './dist/*.js', './flows/*': { import: './flows/*/index.js' }, './internal/*': null };
    expect(resolveExportsTarget(exp, './a')).toBe('./dist/a.js');
    expect(resolveExportsTarget(exp, './flows/greet')).toBe('./flows/greet/index.js');
    expect(resolveExportsTarget(exp, './internal/x')).toBeNull();
    expect(resolveExportsTarget(exp, '.')).toBe('./index.js');
  });
});

describe('package entry points', () => {
  it('follows exports conditions, main (with extension search) and index.js; reports entries that do not resolve', async () => {
    const m = await discoverFixture('entry-points');
    expect(workflowSummary(m)).toEqual([
      'via_bundle <- bundle-first:viaBundle (node_modules/bundle-first/a/workflow.js)',
      'via_index <- index-default:viaIndex (node_modules/index-default/c/workflow.js)',
      'via_main <- main-only:viaMain (node_modules/main-only/b/workflow.js)',
      'via_string <- string-exports:viaString (node_modules/string-exports/lib/d/workflow.js)',
    ]);
    expect(briefs(m)).toEqual([
      'entry/not-found node_modules/missing-target/package.json:5:3',
      'entry/not-found node_modules/no-dot/package.json:5:3',
      'entry/not-found node_modules/require-only/package.json:5:3',
    ]);
    // missing-target/flow/workflow.js is not also reported as unreachable: the entry itself is the problem.
    expect(m.diagnostics[0]!.message).toContain('./gone.js, which does not exist');
    expect(m.diagnostics[2]!.message).toContain('no "." target');
    expect(m.packages.map((p) => p.name)).toEqual(['bundle-first', 'index-default', 'main-only', 'missing-target', 'no-dot', 'require-only', 'string-exports']);
  });
});
