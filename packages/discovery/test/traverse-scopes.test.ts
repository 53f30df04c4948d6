/**
 * The walker's scopes resolve every way JavaScript and TypeScript declare a name (the rules ask them whether `step`,
 * `process` or `require` is a global or a local), and the walk sees exactly the runtime code: TypeScript types are
 * never walked, TypeScript constructs that carry values are.
 */
import { describe, expect, it } from 'vitest';
import { mergeVisitors, parseSource, walk, type Binding, type RuleVisitor, type Scope } from '../src/index.js';

function run(code: string, visitors: RuleVisitor[], file = '/x/file.js'): void {
  const parsed = parseSource(code, file);
  if (!parsed.ast || parsed.errors.length > 0) throw new Error(parsed.errors[0]?.message);
  walk(parsed.ast, mergeVisitors(visitors));
}

/** For each reference to `x`, the binding it resolves to (undefined for a global). */
function bindingsOfX(code: string, file?: string): (Binding | undefined)[] {
  const out: (Binding | undefined)[] = [];
  run(code, [{ Identifier: (p) => void (p.node.name === 'x' && p.isReferencedIdentifier() && out.push(p.scope.getBinding('x'))) }], file);
  return out;
}

/** For each reference to `x`: the binding kind, `global` if none. */
function kinds(code: string, file?: string): string[] {
  return bindingsOfX(code, file).map((b) => b?.kind ?? 'global');
}

describe('scopes: every way a name is declared', () => {
  it.each([
    // binding patterns
    ['const { a: x } = o;\nx;', ['const']],
    ['const { ...x } = o;\nx;', ['const']],
    ['const [, x] = a;\nx;', ['const']],
    ['const [x = 1] = a;\nx;', ['const']],
    ['const [...x] = a;\nx;', ['const']],
    ['let { a: [x] } = o;\nx;', ['let']],
    ['function f({ x }) { return x; }', ['param']],
    ['function f(x = 1) { return x; }', ['param']],
    ['function f(...x) { return x; }', ['param']],
    ['const f = (x) => x;\nx;', ['param', 'global']],
    ['({ m(x) { return x; } });', ['param']],
    ['class A { #m(x) { return x; } }', ['param']],
    ['try {} catch ({ x }) { x; }', ['let']],
    ['try {} catch { x; }', ['global']],
    // var hoisting out of every statement that nests
    ['for (var x = 0; ; ) {}\nx;', ['var']],
    ['for (;;) { var x; }\nx;', ['var']],
    ['for (var x in o) {}\nx;', ['var']],
    ['for (var x of a) {}\nx;', ['var']],
    ['for (const k of a) { var x; }\nx;', ['var']],
    ['while (a) { var x; }\nx;', ['var']],
    ['do { var x; } while (a);\nx;', ['var']],
    ['l: { var x; }\nx;', ['var']],
    ['if (a) {} else { var x; }\nx;', ['var']],
    ['try { var x; } catch {}\nx;', ['var']],
    ['try {} catch (e) { var x; }\nx;', ['var']],
    ['try {} finally { var x; }\nx;', ['var']],
    ['switch (a) { case 1: var x; }\nx;', ['var']],
    ['{ { var x; } }\nx;', ['var']],
    ['function f() { var x; }\nx;', ['global']],
    ['function f() { if (a) { var x; } return x; }', ['var']],
    // let / const / class / functions
    ['let x;\nx;', ['let']],
    ['class x {}\nx;', ['let']],
    ['for (let x = 0; ; ) { x; }\nx;', ['let', 'global']],
    ['for (let x in o) { x; }\nx;', ['let', 'global']],
    ['for (x of a) {}', ['global']],
    ['function f() { return x(); function x() {} }', ['hoisted']],
    ['{ function x() {} x; }\nx;', ['let', 'global']],
    ['if (a) { function x() {} }\nx;', ['global']],
    ['class A { static { var x; x; } }\nx;', ['var', 'global']],
    ['class A { static { let x; x; } }\nx;', ['let', 'global']],
    // exports declare too
    ['export const x = 1;\nx;', ['const']],
    ['export let x = 1;\nx;', ['let']],
    ['export var x = 1;\nx;', ['var']],
    ['export function x() {}\nx;', ['hoisted']],
    ['export default function x() {}\nx;', ['hoisted']],
    ['export class x {}\nx;', ['let']],
    ['export default class x {}\nx;', ['let']],
    ['export default 1;\nx;', ['global']],
    ["var x;\nexport { x };\nexport * from 'm';\nx;", ['var', 'var']],
    ["import * as x from 'm';\nx;", ['module']],
    ["import { a as x } from 'm';\nx;", ['module']],
  ])('%s', (code, expected) => {
    expect(kinds(code)).toEqual(expected);
  });

  it.each([
    // Babel counts a parameter property's own identifier as a reference too.
    ['class A { constructor(private x: number) { x; } m() { x; } }', ['param', 'param', 'global']],
    ['enum E { A }\nx;', ['global']],
    ['let x: number = 1;\nx;', ['let']],
  ])('TypeScript: %s', (code, expected) => {
    expect(kinds(code, '/x/file.ts')).toEqual(expected);
  });

  it('declares the var of a with statement in CommonJS (sloppy mode)', () => {
    expect(kinds('with (o) { var x; }\nx;', '/x/file.cjs')).toEqual(['var']);
  });

  it('opens a scope exactly where JavaScript does, each with its own names (a function body shares its function’s)', () => {
    const code = [
      'function f(a, { b }) {',
      '  var c;',
      '  let d;',
      '  { let e; function g() {} }',
      '  for (let i of a) {}',
      '  for (var j = 0; ; ) {}',
      '  try {} catch (err) {}',
      '  switch (a) { case 1: const k = 1; }',
      '  class K { static { var s; } m(p) {} }',
      '  const h = function named(q) {};',
      '}',
    ].join('\n');
    const scopes = new Set<Scope>();
    run(code, [{ Program: (p) => void scopes.add(p.scope), Identifier: (p) => void scopes.add(p.scope) }]);
    const described = [...scopes]
      .filter((s) => s.bindings.size > 0)
      .map((s) => `${s.path.node.type}: ${[...s.bindings].map(([n, b]) => `${n}=${b.kind}`).join(' ')}`);
    expect(described).toEqual([
      'Program: f=hoisted',
      'FunctionDeclaration: a=param b=param d=let K=let h=const c=var j=var',
      'BlockStatement: e=let g=let',
      'ForOfStatement: i=let',
      'CatchClause: err=let',
      'SwitchStatement: k=const',
      'StaticBlock: s=var',
      'ClassMethod: p=param',
      'FunctionExpression: named=local q=param',
    ]);
    const top = [...scopes][0]!;
    expect(top.parent).toBeNull();
  });

  it('keeps the first declaration of a name, in the scope that declares it, with its declaring node', () => {
    const [b] = bindingsOfX('var x = 1;\nvar x = 2;\nx;');
    expect(b?.identifier.loc?.start.line).toBe(1);
    expect(b?.path.node.type).toBe('VariableDeclarator');
    expect(b?.scope.path.isProgram()).toBe(true);
    const [fn] = bindingsOfX('function f() { x(); function x() {} }');
    expect(fn?.path.node.type).toBe('FunctionDeclaration');
    expect(fn?.path.isVariableDeclarator()).toBe(false);
    expect(fn?.scope.path.node.type).toBe('FunctionDeclaration');
    expect((fn?.scope.path.node as { id?: { name: string } }).id?.name).toBe('f');
    const [param] = bindingsOfX('const f = (a, x) => x;');
    expect(param?.scope.path.node.type).toBe('ArrowFunctionExpression');
    const [inBlock] = bindingsOfX('{ const x = 1; x; }');
    expect(inBlock?.scope.path.node.type).toBe('BlockStatement');
    expect(inBlock?.scope.parent?.path.isProgram()).toBe(true);
  });

  it('answers hasBinding and lists a scope’s own names only', () => {
    const seen: string[] = [];
    run('const a = 1;\nfunction f(b) { { let c; use(a, b, c); } }', [
      {
        CallExpression(p) {
          const s = p.scope;
          seen.push(['a', 'b', 'c', 'use'].map((n) => `${n}:${s.hasBinding(n)}`).join(' '));
          seen.push(
            [...s.bindings.keys()].join(','),
            [...(s.parent?.bindings.keys() ?? [])].join(','),
            [...(s.parent?.parent?.bindings.keys() ?? [])].join(','),
          );
        },
      },
    ]);
    expect(seen).toEqual(['a:true b:true c:true use:false', 'c', 'b', 'a,f']);
  });
});

describe('what the walk visits', () => {
  /** Every identifier the walk reaches, in order. */
  function identifiers(code: string, file = '/x/file.ts'): string[] {
    const out: string[] = [];
    run(code, [{ Identifier: (p) => void out.push(p.node.name) }], file);
    return out;
  }

  it('skips TypeScript types: annotations, type parameters and arguments, interfaces, aliases, implements', () => {
    expect(
      identifiers(
        'let a: Foo = b as Bar;\nfunction f<T>(p: T): Baz { return p!; }\ninterface I { q: Q }\ntype U = V;\nclass C extends D<E> implements F { m(): G { return h<K>(1) satisfies L; } }',
      ),
    ).toEqual(['a', 'b', 'f', 'p', 'p', 'C', 'D', 'm', 'h']);
  });

  it('walks TypeScript constructs that hold runtime code: enums, namespaces, export =, import = require, parameter properties', () => {
    expect(
      identifiers(
        'enum E { A = g() }\nnamespace N { export const v = h(); }\nimport r = require("m");\nclass C { constructor(private p = i()) {} }\nlet y = <T>z;\nexport = k;',
      ),
    ).toEqual(['E', 'A', 'g', 'N', 'v', 'h', 'r', 'C', 'constructor', 'p', 'i', 'y', 'z', 'k']);
  });

  it('steps over array holes and walks a Program given directly', () => {
    const parsed = parseSource('const [, a] = [, b];', '/x/file.js');
    const out: string[] = [];
    walk(parsed.ast!.program, mergeVisitors([{ Identifier: (p) => void out.push(`${p.node.name}:${p.scope.getBinding(p.node.name)?.kind ?? 'global'}`) }]));
    expect(out).toEqual(['a:const', 'b:global']);
  });

  it('ignores a visitor entry that is not a function', () => {
    const seen: string[] = [];
    run('f();', [{ CallExpression: undefined }, { CallExpression: () => void seen.push('called') }]);
    expect(seen).toEqual(['called']);
  });

  it('knows which identifiers are references and which function encloses a node', () => {
    const seen: string[] = [];
    run('const o = { k: v };\no.p;\nconst g = () => w;', [
      {
        Identifier: (p) => void seen.push(`${p.node.name}:${p.isReferencedIdentifier()}:${p.getFunctionParent()?.node.type ?? 'module'}`),
        Program: (p) => void seen.push(`program:${p.isReferencedIdentifier()}:${p.parent.type}`),
        MemberExpression: (p) => void seen.push(`member:${p.isReferencedIdentifier()}`),
      },
    ]);
    expect(seen).toEqual([
      'program:false:Program',
      'o:false:module',
      'k:false:module',
      'v:true:module',
      'member:false',
      'o:true:module',
      'p:false:module',
      'g:false:module',
      'w:true:ArrowFunctionExpression',
    ]);
  });
});
