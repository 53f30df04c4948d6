/**
 * The single-pass walker: visitors see nodes in source order, merged across rules, with lexical scopes
 * that resolve names as JavaScript does.
 */
import { describe, expect, it } from 'vitest';
import { IMPORT_CALL, mergeVisitors, parseSource, REQUIRE_WORD, VISIT_SCOPE, walk, wordPattern, type RulePath, type RuleVisitor } from '../src/index.js';

function run(code: string, visitors: RuleVisitor[]): void {
  const parsed = parseSource(code, '/x/file.js');
  if (!parsed.ast || parsed.errors.length > 0) throw new Error(parsed.errors[0]?.message);
  walk(parsed.ast, mergeVisitors(visitors));
}

/** For each referenced identifier named `target`, the kind of the binding it resolves to (`global` if none). */
function resolutions(code: string, target: string): string[] {
  const out: string[] = [];
  run(code, [
    {
      Identifier(path) {
        if (path.node.name === target && path.isReferencedIdentifier()) out.push(path.scope.getBinding(target)?.kind ?? 'global');
      },
    },
  ]);
  return out;
}

describe('walk', () => {
  it('visits nodes in source order and runs every rule for a type, in rule order', () => {
    const seen: string[] = [];
    run('const a = f(1);\ng(2);', [
      { CallExpression: (p) => void seen.push(`r1:${(p.node.callee as { name: string }).name}`) },
      { CallExpression: (p) => void seen.push(`r2:${(p.node.callee as { name: string }).name}`), Program: () => void seen.push('program') },
    ]);
    expect(seen).toEqual(['program', 'r1:f', 'r2:f', 'r1:g', 'r2:g']);
  });

  it('gives parents and the enclosing function', () => {
    let parentType = '';
    let inFunction: boolean | null = null;
    run('function outer() { return inner(); }', [
      {
        CallExpression(path: RulePath) {
          parentType = path.parent.type;
          inFunction = path.getFunctionParent() !== null;
        },
      },
    ]);
    expect(parentType).toBe('ReturnStatement');
    expect(inFunction).toBe(true);
  });
});

describe('scopes', () => {
  it.each([
    ["import x from 'm';\nx;", ['module']],
    ['x;\nvar x = 1;', ['var']],
    ['x();\nfunction x() {}', ['hoisted']],
    ['const x = 1;\n{ const x = 2; x; }\nx;', ['const', 'const']],
    ['function f(x) { return x; }\nx;', ['param', 'global']],
    ['{ let x = 1; }\nx;', ['global']],
    ['if (a) { var x = 1; }\nx;', ['var']],
    ['for (const x of []) { x; }\nx;', ['const', 'global']],
    ['try {} catch (x) { x; }\nx;', ['let', 'global']],
    ['const o = { x: 1 };\no.x;', []],
    ['class A { x() { return x; } }', ['global']],
    ['const f = function x() { return x; };', ['local']],
    ['switch (a) { case 1: let x = 1; x; }\nx;', ['let', 'global']],
  ])('%s', (code, kinds) => {
    expect(resolutions(code, 'x')).toEqual(kinds);
  });

  it('records the declarator and module scope of a const', () => {
    let init: string | undefined;
    let declaredAtModuleLevel = false;
    run("const NAME = 'greet';\nuse(NAME);", [
      {
        Identifier(path) {
          if (path.node.name !== 'NAME' || !path.isReferencedIdentifier()) return;
          const b = path.scope.getBinding('NAME');
          init = b?.path.isVariableDeclarator() ? (b.path.node.init as { value?: string }).value : undefined;
          declaredAtModuleLevel = b?.scope.path.isProgram() ?? false;
        },
      },
    ]);
    expect(init).toBe('greet');
    expect(declaredAtModuleLevel).toBe(true);
  });
});

/** Calls (callee name, or its type) seen by a visitor of the given `CallExpression` scope, walking as the store does. */
function callsSeen(code: string, scope: 'module' | RegExp | undefined, file = '/x/file.js', extra: RuleVisitor[] = []): string[] {
  const parsed = parseSource(code, file);
  if (!parsed.ast || parsed.errors.length > 0) throw new Error(parsed.errors[0]?.message);
  const seen: string[] = [];
  const visitor: RuleVisitor = {
    CallExpression: (p) => void seen.push(p.node.callee.type === 'Identifier' ? p.node.callee.name : p.node.callee.type),
    ...(scope !== undefined && { [VISIT_SCOPE]: { CallExpression: scope } }),
  };
  walk(parsed.ast, mergeVisitors([visitor, ...extra], { text: code, typescript: file.endsWith('.ts') }));
  return seen;
}

describe('what the walk skips (mergeVisitors with the source text)', () => {
  const code = [
    'top();',
    'function f() { inFunction(); }',
    'const g = () => inArrow();',
    'const o = { m() { inMethod(); }, k: inObject() };',
    'class A { x = inField(); static y = inStaticField(); [computed()]() {} static { inStaticBlock(); } static s() { inStaticMethod(); } }',
    'if (c) { inBlock(); }',
  ].join('\n');

  it('visits every node when any visitor may act anywhere, or without the text', () => {
    const all = ['top', 'inFunction', 'inArrow', 'inMethod', 'inObject', 'inField', 'inStaticField', 'computed', 'inStaticBlock', 'inStaticMethod', 'inBlock'];
    expect(callsSeen(code, undefined)).toEqual(all);
    const parsed = parseSource(code, '/x/file.js');
    const seen: string[] = [];
    walk(
      parsed.ast!,
      mergeVisitors([{ [VISIT_SCOPE]: { CallExpression: 'module' }, CallExpression: (p) => void seen.push((p.node.callee as { name: string }).name) }]),
    );
    expect(seen).toEqual(all);
  });

  it('stays at module level when every visitor works there: no function body, no instance field initializer', () => {
    // Exactly the nodes where the validator's isModuleTopLevel holds (a computed method key counts as inside the method;
    // a static method is a function like any other).
    expect(callsSeen(code, 'module')).toEqual(['top', 'inObject', 'inStaticField', 'inStaticBlock', 'inBlock']);
  });

  it('still calls the visitors of a function node itself, with its own scope', () => {
    const parsed = parseSource('function f(a) {}', '/x/file.js');
    const params: string[] = [];
    const visitor: RuleVisitor = { [VISIT_SCOPE]: { FunctionDeclaration: 'module' }, FunctionDeclaration: (p) => void params.push(...p.scope.bindings.keys()) };
    walk(parsed.ast!, mergeVisitors([visitor], { text: 'function f(a) {}', typescript: false }));
    expect(params).toEqual(['a']);
  });

  it('leaves out a visitor whose word the text lacks, and keeps it (walking everything) when the word is there', () => {
    expect(callsSeen('function f() { g(); }', REQUIRE_WORD)).toEqual([]);
    expect(callsSeen("function f() { return require('x'); }", REQUIRE_WORD)).toEqual(['require']);
    // A left-out visitor does not stop the others from staying at module level.
    expect(
      callsSeen('top(); function f() { inner(); }', REQUIRE_WORD, '/x/file.js', [{ [VISIT_SCOPE]: { CallExpression: 'module' }, CallExpression: () => {} }]),
    ).toEqual([]);
  });

  it('keeps every visitor when an escape could spell its word', () => {
    expect(callsSeen("function f() { return \\u0072equire('x'); }", REQUIRE_WORD)).toEqual(['require']);
    expect(callsSeen("const s = '\\x41'; function f() { g(); }", REQUIRE_WORD)).toEqual(['g']);
  });

  it('walks everything in a TypeScript file that may declare a namespace (its exports can sit inside a function)', () => {
    const ts = 'function f() { namespace N { export const a = g(); } }';
    expect(callsSeen(ts, 'module', '/x/file.ts')).toEqual(['g']);
    expect(callsSeen('function f() { h(); }', 'module', '/x/file.ts')).toEqual([]);
  });

  it('matches import() through comments, and whole words only', () => {
    expect(IMPORT_CALL.test("await import('x')")).toBe(true);
    expect(IMPORT_CALL.test("import /* c */ ('x')")).toBe(true);
    expect(IMPORT_CALL.test("import x from 'y'; reimport(1)")).toBe(false);
    const words = wordPattern(['process', 'fetch']);
    expect(words.test('globalThis["fetch"]')).toBe(true);
    expect(words.test('fetchItem(processed)')).toBe(false);
    expect(() => wordPattern(['a.b'])).toThrow(/not a plain word/);
  });
});
