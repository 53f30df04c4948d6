/**
 * The single-pass walker: visitors see nodes in source order, merged across rules, with lexical scopes
 * that resolve names as JavaScript does.
 */
import { describe, expect, it } from 'vitest';
import { mergeVisitors, parseSource, walk, type RulePath, type RuleVisitor } from '../src/index.js';

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
