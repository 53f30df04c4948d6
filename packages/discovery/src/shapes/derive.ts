/**
 * Derives one workflow's command shape from its `fn`: a walk over the function's statements that turns calls of
 * steps, evaluators, child workflows and Temporal's primitives into `command` nodes, `await`s of them into `wait`
 * nodes, control flow into `alt`/`loop`/`parallel`/`patched` nodes, and follows helper functions of the project
 * across files. Whatever it cannot follow becomes a `partial` node at that point, never a guess.
 */
import type * as t from '@babel/types';
import { relative, sep } from 'node:path';
import { activityType, HTTP_REQUEST_ACTIVITY_TYPE } from '@skein/names';
import { kindOf } from '../definitions.js';
import { positionOf } from '../finding.js';
import { resolveRelativeImport } from '../module-path.js';
import type { Definition, ModuleInfo, StaticString } from '../module-info.js';
import { keyName, staticStringOf, unwrapExpression } from '../static-values.js';
import type { ModuleStore } from '../store.js';
import type { CommandKind, PartialPoint, ShapeLocation, ShapeNode } from './types.js';

/** How deep helper calls are followed before the shape turns partial. */
export const MAX_CALL_DEPTH = 12;

/** Module specifiers whose exports are the workflow primitives (by export name). */
const PRIMITIVE_SOURCES = [/^@skein\/core(\/.*)?$/, /^@temporalio\/workflow$/, /^@output\.ai\/core(\/.*)?$/];

/** The primitives that issue or wait for commands, by export name. */
type Primitive =
  | 'sleep'
  | 'condition'
  | 'continueAsNew'
  | 'patched'
  | 'deprecatePatch'
  | 'executeInParallel'
  | 'sendHttpRequest'
  | 'sendPostRequestAndAwaitWebhook'
  | 'executeChild'
  | 'startChild'
  | 'setHandler'
  | 'proxyActivities'
  | 'proxyLocalActivities'
  | 'defineSignal'
  | 'defineUpdate'
  | 'defineQuery'
  | 'upsertSearchAttributes'
  | 'upsertMemo'
  | 'CancellationScope';
const PRIMITIVES = new Set<string>([
  'upsertSearchAttributes',
  'upsertMemo',
  'CancellationScope',
  'sleep',
  'condition',
  'continueAsNew',
  'patched',
  'deprecatePatch',
  'executeInParallel',
  'sendHttpRequest',
  'sendPostRequestAndAwaitWebhook',
  'executeChild',
  'startChild',
  'setHandler',
  'proxyActivities',
  'proxyLocalActivities',
  'defineSignal',
  'defineUpdate',
  'defineQuery',
]);

/** Array methods whose function argument runs once per element. */
const ITERATING_METHODS = new Set(['map', 'forEach', 'flatMap', 'filter', 'some', 'every', 'find', 'findIndex', 'reduce', 'reduceRight']);
const PARALLEL_METHODS = new Set(['all', 'allSettled', 'race', 'any']);

type Fn = t.FunctionDeclaration | t.FunctionExpression | t.ArrowFunctionExpression | t.ObjectMethod;

/** A lexical context: the file, its facts and tree, and what local names are bound to. */
interface Scope {
  file: string;
  info: ModuleInfo;
  /** The module's tree, parsed on first need (steps and evaluators files never need it: their facts are enough). */
  tree: () => t.Program | undefined;
  /** Names bound inside the functions being walked: functions (followed), parameters, command promises. */
  names: Map<string, Bound>;
  parent: Scope | undefined;
}

type Bound =
  | { kind: 'function'; fn: Fn; scope: Scope }
  | { kind: 'param' }
  | { kind: 'pending' }
  | { kind: 'signal'; name: string }
  | { kind: 'context' }
  | { kind: 'proxy' }
  /** A parameter bound to a step, evaluator or workflow passed in by the caller: calling it issues that command. */
  | { kind: 'command'; callee: Extract<Callee, { kind: 'activity' | 'workflow' }> }
  /** The result of `await condition(fn, timeout)`: true when the condition held, false when the timer fired. */
  | { kind: 'condition-result' }
  /** The result of `patched('id')` kept in a variable: a guard the analysis follows only written in the `if` itself. */
  | { kind: 'patch-result'; id: string }
  | { kind: 'value' };

/** What a callee turned out to be. */
type Callee =
  | { kind: 'primitive'; name: Primitive }
  /** A step or evaluator; `activityId`: the id its definition's options set, when they set one. */
  | { kind: 'activity'; name: string; activityId?: StaticString }
  | { kind: 'workflow'; name: string }
  | { kind: 'function'; fn: Fn; scope: Scope }
  | { kind: 'unfollowable'; construct: string }
  | { kind: 'continue-as-new' }
  | { kind: 'none' };

/** What the walk of one workflow shares. */
export interface DeriveContext {
  store: ModuleStore;
  /** Real path of the project root; locations are made relative to it. */
  root: string;
  /** The workflow whose activities are typed `<workflowName>#<activity>`. */
  workflowName: string;
  handlers: Record<string, ShapeNode>;
  partial: PartialPoint[];
  /** Functions being followed (recursion guard). */
  stack: Fn[];
  /** Answers shared by every workflow of one derivation: files relative to the root, resolved imports. */
  memo?: DeriveMemo;
  /** Every file the derivation read (its shape depends on their contents). */
  files: Set<string>;
}

/** Answers that depend only on files, shared across the workflows of one derivation. */
export interface DeriveMemo {
  relative: Map<string, string>;
  /** Each resolved import, with the files its resolution read. */
  imports: Map<string, { answer: Callee | { kind: 'signal'; name: string }; files: string[] }>;
}

/** A fresh memo for one derivation. */
export function deriveMemo(): DeriveMemo {
  return { relative: new Map(), imports: new Map() };
}

/** A sequence, flattened (nested sequences spliced in, a wait right after a wait dropped). */
function seq(items: ShapeNode[]): ShapeNode {
  const flat: ShapeNode[] = [];
  for (const item of items) {
    for (const n of item.kind === 'seq' ? item.items : [item]) {
      if (flat.at(-1)?.kind === 'exit') break; // nothing after a return, throw, break or continue runs
      const last = flat.at(-1);
      // A wait right after a wait is the same wait, except a condition() after a command's result: the workflow task
      // the result woke issued nothing before the run began waiting in the condition (see compare.ts).
      if (n.kind === 'wait' && last?.kind === 'wait' && (!n.condition || last.condition)) continue;
      flat.push(n);
    }
  }
  return flat.length === 1 ? flat[0]! : { kind: 'seq', items: flat };
}
const EMPTY: ShapeNode = { kind: 'seq', items: [] };

/** True when a node issues a command or can wait (so it matters to replay). */
export function matters(node: ShapeNode): boolean {
  switch (node.kind) {
    case 'seq':
      return node.items.some(matters);
    case 'command':
    case 'wait':
    case 'partial':
    case 'patched':
      return true;
    case 'exit':
      return false;
    case 'alt':
      return node.branches.some((b) => matters(b.body));
    case 'loop':
    case 'call':
      return matters(node.body);
    case 'parallel':
      return node.branches.some(matters);
  }
}

/** True when a node issues a command or may not be followed (an `await` of it can block). */
function issues(node: ShapeNode): boolean {
  switch (node.kind) {
    case 'seq':
      return node.items.some(issues);
    case 'command':
    case 'partial':
    case 'patched':
      return true;
    case 'wait':
      return true;
    case 'exit':
      return false;
    case 'alt':
      return node.branches.some((b) => issues(b.body));
    case 'loop':
    case 'call':
      return issues(node.body);
    case 'parallel':
      return node.branches.some(issues);
  }
}

/** Drops an `exit` at the top level of a function's shape (the caller continues after a `return`). */
function endsInReturn(node: ShapeNode): boolean {
  return node.kind === 'seq' && node.items.length > 0 && endsInReturn(node.items[node.items.length - 1]!)
    ? true
    : node.kind === 'exit' && node.how === 'return';
}

export class ShapeWalker {
  /** Functions walked for the first time, whose recursive calls count as issuing nothing (see `callFunction`). */
  private readonly quiet = new Set<Fn>();
  /** Functions of `quiet` that did call themselves. */
  private readonly recursed = new Set<Fn>();

  constructor(private readonly ctx: DeriveContext) {}

  /** The location of `node` in `scope`'s file, relative to the project root. */
  loc(scope: Scope, node: t.Node): ShapeLocation {
    const p = positionOf(node);
    const memo = (this.ctx.memo ??= deriveMemo()).relative;
    let file = memo.get(scope.file);
    if (file === undefined) {
      file = relative(this.ctx.root, scope.file).split(sep).join('/');
      memo.set(scope.file, file);
    }
    return { file, line: p.line, column: p.column };
  }

  partial(scope: Scope, node: t.Node, construct: string): ShapeNode {
    const at = this.loc(scope, node);
    this.ctx.partial.push({ construct, at });
    return { kind: 'partial', construct, at };
  }

  /** A module-level scope of `file`, or undefined when it cannot be read. */
  moduleScope(file: string): Scope | undefined {
    const loaded = this.ctx.store.load(file);
    if (!loaded.info) return undefined;
    this.ctx.files.add(file);
    const store = this.ctx.store;
    return { file, info: loaded.info, tree: () => store.tree(file)?.program, names: new Map(), parent: undefined };
  }

  /**
   * The shape of calling `fn` (a workflow's `fn` or a followed helper), with `args` bound to its parameters.
   * `contextParam` marks the workflow fn's second parameter (`context.control.continueAsNew`).
   */
  callFunction(fn: Fn, scope: Scope, args: { node: t.Node; scope: Scope }[], isWorkflowFn = false): ShapeNode {
    if (this.ctx.stack.includes(fn)) {
      // First walked as if the recursive call issued nothing: a recursive function without commands (an error's
      // root cause) is provably empty; one with commands is walked again with the recursion partial.
      if (this.quiet.has(fn)) {
        this.recursed.add(fn);
        return EMPTY;
      }
      return this.partial(scope, fn, 'a recursive call');
    }
    if (this.ctx.stack.length >= MAX_CALL_DEPTH) return this.partial(scope, fn, `helper calls nested deeper than ${MAX_CALL_DEPTH}`);
    const inner: Scope = { ...scope, names: new Map(), parent: scope };
    fn.params.forEach((p, i) => {
      if (p.type !== 'Identifier') return;
      if (isWorkflowFn && i === 1) return void inner.names.set(p.name, { kind: 'context' });
      const arg = args[i];
      const argFn = arg && this.functionOf(arg.node, arg.scope);
      const ref = arg && this.commandRef(arg.node, arg.scope);
      inner.names.set(p.name, argFn ?? (ref ? { kind: 'command', callee: ref } : isWorkflowFn ? { kind: 'value' } : { kind: 'param' }));
    });
    this.ctx.stack.push(fn);
    try {
      const walkBody = () => {
        const fresh: Scope = { ...inner, names: new Map(inner.names) };
        return fn.body.type !== 'BlockStatement' ? this.expr(fn.body, fresh) : this.block(fn.body.body, fresh);
      };
      const mark = this.ctx.partial.length;
      this.quiet.add(fn);
      let body = walkBody();
      this.quiet.delete(fn);
      if (this.recursed.delete(fn) && matters(body)) {
        this.ctx.partial.length = mark;
        body = walkBody();
      }
      // The workflow's own `fn: async (x) => step(x)`: the run waits for the returned promise.
      if (isWorkflowFn) return fn.body.type !== 'BlockStatement' && issues(body) ? seq([body, { kind: 'wait', at: this.loc(scope, fn.body) }]) : body;
      return matters(body) ? { kind: 'call', body, at: this.loc(scope, fn) } : EMPTY;
    } finally {
      this.ctx.stack.pop();
    }
  }

  /** A function value written or named at `node`, bound for following. */
  private functionOf(node: t.Node, scope: Scope): Bound | undefined {
    if (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression') return { kind: 'function', fn: node, scope };
    if (node.type === 'Identifier') {
      const c = this.resolveName(node.name, scope);
      if (c.kind === 'function') return { kind: 'function', fn: c.fn, scope: c.scope };
    }
    return undefined;
  }

  /** The step, evaluator or workflow an identifier names (directly or through a parameter bound to one). */
  private commandRef(node: t.Node, scope: Scope): Extract<Callee, { kind: 'activity' | 'workflow' }> | undefined {
    if (node.type !== 'Identifier') return undefined;
    const b = lookup(node.name, scope);
    if (b) return b.kind === 'command' ? b.callee : undefined;
    const found = this.moduleBinding(node.name, scope);
    return found?.kind === 'activity' || found?.kind === 'workflow' ? found : undefined;
  }

  /**
   * An identifier read as a value (not called, not passed to a followed helper). A step, evaluator or workflow used
   * as a value (put in an array or object, assigned, returned), or a module-level table holding them, can be called
   * where the analysis cannot see which: the shape is partial from here.
   */
  private valueUse(e: t.Identifier, scope: Scope): ShapeNode {
    const ref = this.commandRef(e, scope);
    if (ref) return this.partial(scope, e, `${e.name}, a ${ref.kind === 'workflow' ? 'workflow' : 'step or evaluator'} used as a value`);
    const held = lookup(e.name, scope) ? [] : this.tableOfCommands(e.name, scope);
    // The construct names what the table holds: a change of its entries is a change of the shape.
    if (held.length)
      return this.partial(scope, e, `${e.name}, a table of steps, evaluators or workflows (${held.join(', ')}), called by a key known at run time`);
    return EMPTY;
  }

  /** The steps, evaluators and workflows a module-level `const name = [...]` or `{...}` holds, in source order. */
  private tableOfCommands(name: string, scope: Scope): string[] {
    if (scope.info.locals.get(name)?.kind === 'import') return [];
    for (const stmt of scope.tree()?.body ?? []) {
      const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
      if (decl?.type !== 'VariableDeclaration') continue;
      for (const d of decl.declarations) {
        if (d.id.type !== 'Identifier' || d.id.name !== name || !d.init) continue;
        const top: Scope = { ...scope, names: new Map(), parent: undefined };
        const held: string[] = [];
        const holds = (n: t.Node, label: string): void => {
          n = unwrapExpression(n);
          if (n.type === 'ArrayExpression') {
            n.elements.forEach((x, i) => x && holds(x.type === 'SpreadElement' ? x.argument : x, `${label}${i}: `));
          } else if (n.type === 'ObjectExpression') {
            for (const p of n.properties) if (p.type === 'ObjectProperty') holds(p.value, `${label}${keyName(p.key, p.computed) ?? '?'}: `);
          } else {
            const ref = this.commandRef(n, top);
            if (ref) held.push(`${label}${ref.kind === 'workflow' ? ref.name : activityType(this.ctx.workflowName, ref.name)}`);
          }
        };
        holds(d.init, '');
        return held;
      }
    }
    return [];
  }

  /** Statements of one block, in order; declares the block's functions first (they are hoisted). */
  block(statements: t.Statement[], scope: Scope): ShapeNode {
    for (const s of statements) this.declare(s, scope);
    const items: ShapeNode[] = [];
    for (const s of statements) {
      const node = this.statement(s, scope);
      if (matters(node) || hasExit(node)) items.push(node);
      if (node.kind === 'exit' || (node.kind === 'seq' && node.items.at(-1)?.kind === 'exit')) break;
    }
    return seq(items);
  }

  private declare(s: t.Statement, scope: Scope): void {
    if (s.type === 'FunctionDeclaration' && s.id) scope.names.set(s.id.name, { kind: 'function', fn: s, scope });
  }

  private bindPattern(id: t.Node, init: t.Node | null | undefined, scope: Scope, initShape: ShapeNode): void {
    if (id.type !== 'Identifier') {
      for (const name of patternNames(id)) scope.names.set(name, { kind: 'value' });
      return;
    }
    if (!init) return void scope.names.set(id.name, { kind: 'value' });
    const fn = this.functionOf(init, scope);
    if (fn) return void scope.names.set(id.name, fn);
    const signal = this.signalName(init, scope);
    if (signal !== undefined) return void scope.names.set(id.name, { kind: 'signal', name: signal });
    if (init.type === 'AwaitExpression' && init.argument.type === 'CallExpression' && init.argument.arguments.length >= 2) {
      const c = this.resolveCallee(init.argument.callee, scope);
      if (c.kind === 'primitive' && c.name === 'condition') return void scope.names.set(id.name, { kind: 'condition-result' });
    }
    if (init.type === 'CallExpression') {
      const c = this.resolveCallee(init.callee, scope);
      if (c.kind === 'primitive' && (c.name === 'proxyActivities' || c.name === 'proxyLocalActivities'))
        return void scope.names.set(id.name, { kind: 'proxy' });
      const patchId = c.kind === 'primitive' && c.name === 'patched' ? staticStringOf(init.arguments[0]) : undefined;
      if (patchId !== undefined) return void scope.names.set(id.name, { kind: 'patch-result', id: patchId });
    }
    // A promise of a command not awaited yet: awaiting the name later is a wait.
    scope.names.set(id.name, issues(initShape) ? { kind: 'pending' } : { kind: 'value' });
  }

  statement(s: t.Statement, scope: Scope): ShapeNode {
    switch (s.type) {
      case 'ExpressionStatement':
        return this.expr(s.expression, scope);
      case 'VariableDeclaration': {
        const items: ShapeNode[] = [];
        for (const d of s.declarations) {
          const init = d.init ? this.expr(d.init, scope) : EMPTY;
          this.bindPattern(d.id, d.init, scope, init);
          items.push(init);
        }
        return seq(items.filter(matters));
      }
      case 'ReturnStatement':
      case 'ThrowStatement': {
        const value = s.argument ? this.expr(s.argument, scope) : EMPTY;
        const exit: ShapeNode = { kind: 'exit', how: s.type === 'ReturnStatement' ? 'return' : 'throw', at: this.loc(scope, s) };
        // `return step(x)`: in a helper the caller's `await` waits on it; in the workflow's fn the run itself does.
        const waits = s.type === 'ReturnStatement' && this.ctx.stack.length === 1 && issues(value);
        return seq([...(matters(value) ? [value] : []), ...(waits ? [{ kind: 'wait', at: this.loc(scope, s) } as ShapeNode] : []), exit]);
      }
      case 'BreakStatement':
      case 'ContinueStatement':
        if (s.label) return this.partial(scope, s, `a labelled ${s.type === 'BreakStatement' ? 'break' : 'continue'}`);
        return { kind: 'exit', how: s.type === 'BreakStatement' ? 'break' : 'continue', at: this.loc(scope, s) };
      case 'BlockStatement':
        return this.block(s.body, { ...scope, names: new Map(), parent: scope });
      case 'IfStatement':
        return this.ifStatement(s, scope);
      case 'SwitchStatement':
        return this.switchStatement(s, scope);
      case 'ForStatement': {
        const inner: Scope = { ...scope, names: new Map(), parent: scope };
        const init = s.init ? (s.init.type === 'VariableDeclaration' ? this.statement(s.init, inner) : this.expr(s.init, inner)) : EMPTY;
        const body = seq(
          [s.test ? this.expr(s.test, inner) : EMPTY, this.statement(s.body, inner), s.update ? this.expr(s.update, inner) : EMPTY].filter(
            (n) => matters(n) || n.kind === 'exit',
          ),
        );
        return seq([init, ...(matters(body) ? [{ kind: 'loop', body, at: this.loc(scope, s) } as ShapeNode] : [])].filter(matters));
      }
      case 'ForOfStatement':
      case 'ForInStatement': {
        const inner: Scope = { ...scope, names: new Map(), parent: scope };
        const right = this.expr(s.right, scope);
        if (s.left.type === 'VariableDeclaration')
          for (const d of s.left.declarations) for (const n of patternNames(d.id)) inner.names.set(n, { kind: 'value' });
        let body = this.statement(s.body, inner);
        if (s.type === 'ForOfStatement' && s.await) body = seq([{ kind: 'wait', at: this.loc(scope, s) }, body]);
        return seq([right, ...(matters(body) ? [{ kind: 'loop', body, at: this.loc(scope, s) } as ShapeNode] : [])].filter(matters));
      }
      case 'WhileStatement':
      case 'DoWhileStatement': {
        const inner: Scope = { ...scope, names: new Map(), parent: scope };
        const body = seq([this.expr(s.test, inner), this.statement(s.body, inner)].filter((n) => matters(n) || n.kind === 'exit'));
        if (!matters(body)) return EMPTY;
        const loop: ShapeNode = { kind: 'loop', body, at: this.loc(scope, s) };
        return s.type === 'DoWhileStatement' ? seq([body, loop]) : loop;
      }
      case 'TryStatement': {
        const tried = this.statement(s.block, scope);
        const caught = s.handler ? this.statement(s.handler.body, { ...scope, names: new Map(), parent: scope }) : EMPTY;
        const finalizer = s.finalizer ? this.statement(s.finalizer, scope) : EMPTY;
        if (!matters(caught)) return seq([tried, finalizer].filter((n) => matters(n) || n.kind === 'exit'));
        // The catch block may run after any command of the try block: only an exact match of both is provable.
        return seq(
          [
            {
              kind: 'alt',
              key: `try@${this.loc(scope, s).line}`,
              branches: [
                { label: 'try', body: tried },
                { label: 'catch', body: seq([this.partial(scope, s.handler!, 'a catch block that issues commands'), caught]) },
              ],
              at: this.loc(scope, s),
            } as ShapeNode,
            finalizer,
          ].filter(matters),
        );
      }
      case 'LabeledStatement':
        return this.statement(s.body, scope);
      case 'FunctionDeclaration':
      case 'EmptyStatement':
      case 'ClassDeclaration':
      case 'TSTypeAliasDeclaration':
      case 'TSInterfaceDeclaration':
      case 'DebuggerStatement':
        return EMPTY;
      default:
        return EMPTY;
    }
  }

  private ifStatement(s: t.IfStatement, scope: Scope): ShapeNode {
    const patch = this.patchTest(s.test, scope);
    if (patch) {
      const thenShape = this.statement(s.consequent, scope);
      const elseShape = s.alternate ? this.statement(s.alternate, scope) : EMPTY;
      const at = this.loc(scope, s.test);
      return patch.negated
        ? { kind: 'patched', id: patch.id, then: elseShape, else: thenShape, at }
        : { kind: 'patched', id: patch.id, then: thenShape, else: elseShape, at };
    }
    const kept = patchResultTest(s.test, scope);
    if (kept) {
      return this.partial(
        scope,
        s.test,
        `the patched('${kept.id}') result kept in \`${kept.name}\` (the analysis follows a guard written as \`if (patched('${kept.id}'))\`)`,
      );
    }
    const test = this.expr(s.test, scope);
    const thenShape = this.statement(s.consequent, scope);
    const elseShape = s.alternate ? this.statement(s.alternate, scope) : EMPTY;
    // `if (held)` / `if (!held)` on a condition()'s result: the decision is keyed by what it tests (the condition held
    // or its timer fired), so compare.ts can tell the branch an old history takes when the timer is new.
    const negated = s.test.type === 'UnaryExpression' && s.test.operator === '!';
    const tested = negated ? (s.test as t.UnaryExpression).argument : s.test;
    const onCondition = tested.type === 'Identifier' && lookup(tested.name, scope)?.kind === 'condition-result';
    const alt = this.alt(scope, s.test, [
      [onCondition ? (negated ? 'timed-out' : 'held') : 'then', thenShape],
      [onCondition ? (negated ? 'held' : 'timed-out') : 'else', elseShape],
    ]);
    if (onCondition && alt.kind === 'alt') alt.key = `condition-held(${sourceKey(tested)})`;
    return seq([test, alt].filter((n) => matters(n) || hasExit(n)));
  }

  private switchStatement(s: t.SwitchStatement, scope: Scope): ShapeNode {
    const test = this.expr(s.discriminant, scope);
    const branches: [string, ShapeNode][] = [];
    let hasDefault = false;
    s.cases.forEach((c, i) => {
      if (!c.test) hasDefault = true;
      // Fall-through: a case runs the statements of the cases after it until a break.
      const stmts: t.Statement[] = [];
      for (const later of s.cases.slice(i)) {
        stmts.push(...later.consequent);
        if (later.consequent.some((x) => x.type === 'BreakStatement' || x.type === 'ReturnStatement' || x.type === 'ThrowStatement')) break;
      }
      const body = this.block(
        stmts.filter((x) => x.type !== 'BreakStatement'),
        { ...scope, names: new Map(), parent: scope },
      );
      branches.push([c.test ? sourceKey(c.test) : 'default', body]);
    });
    if (!hasDefault) branches.push(['none', EMPTY]);
    return seq([test, this.alt(scope, s.discriminant, branches)].filter((n) => matters(n) || n.kind === 'alt'));
  }

  /** An `alt` node, or EMPTY when no branch matters (exits still matter: a branch may return). */
  private alt(scope: Scope, decider: t.Node, branches: [string, ShapeNode][]): ShapeNode {
    const relevant = branches.some(([, b]) => matters(b) || endsInReturn(b) || hasExit(b));
    if (!relevant) return EMPTY;
    return { kind: 'alt', key: sourceKey(decider), branches: branches.map(([label, body]) => ({ label, body })), at: this.loc(scope, decider) };
  }

  /** `patched('id')` or `!patched('id')` as an `if` test. */
  private patchTest(test: t.Node, scope: Scope): { id: string; negated: boolean } | undefined {
    let negated = false;
    if (test.type === 'UnaryExpression' && test.operator === '!') {
      negated = true;
      test = test.argument;
    }
    if (test.type !== 'CallExpression') return undefined;
    const callee = this.resolveCallee(test.callee, scope);
    if (callee.kind !== 'primitive' || callee.name !== 'patched') return undefined;
    const id = staticStringOf(test.arguments[0]);
    return id === undefined ? undefined : { id, negated };
  }

  expr(e: t.Node, scope: Scope): ShapeNode {
    switch (e.type) {
      case 'AwaitExpression': {
        const inner = this.expr(e.argument, scope);
        const blocks = issues(inner) || this.isPending(e.argument, scope);
        return blocks ? seq([...(matters(inner) ? [inner] : []), { kind: 'wait', at: this.loc(scope, e) }]) : inner;
      }
      case 'CallExpression':
      case 'OptionalCallExpression':
        return this.call(e, scope);
      case 'NewExpression':
        return this.args(e.arguments, scope, e, 'constructor');
      case 'ConditionalExpression': {
        const test = this.expr(e.test, scope);
        const alt = this.alt(scope, e.test, [
          ['then', this.expr(e.consequent, scope)],
          ['else', this.expr(e.alternate, scope)],
        ]);
        return seq([test, alt].filter(matters));
      }
      case 'LogicalExpression': {
        const left = this.expr(e.left, scope);
        const right = this.expr(e.right, scope);
        const alt = this.alt(scope, e.left, [
          [e.operator, right],
          ['short', EMPTY],
        ]);
        return seq([left, alt].filter(matters));
      }
      case 'SequenceExpression':
        return seq(e.expressions.map((x) => this.expr(x, scope)).filter(matters));
      case 'AssignmentExpression': {
        const right = this.expr(e.right, scope);
        if (e.left.type === 'Identifier') {
          const fn = this.functionOf(e.right, scope);
          this.rebind(e.left.name, scope, fn ?? (issues(right) ? { kind: 'pending' } : { kind: 'value' }));
        }
        return right;
      }
      case 'BinaryExpression':
        return seq([this.expr(e.left, scope), this.expr(e.right, scope)].filter(matters));
      case 'UnaryExpression':
      case 'UpdateExpression':
      case 'SpreadElement':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'ParenthesizedExpression':
        return this.expr((e as { argument?: t.Node; expression?: t.Node }).argument ?? (e as { expression: t.Node }).expression, scope);
      case 'ArrayExpression':
        return seq(
          e.elements
            .filter((x): x is NonNullable<typeof x> => x !== null)
            .map((x) => this.expr(x, scope))
            .filter(matters),
        );
      case 'ObjectExpression':
        return seq(
          e.properties
            .map((p) => (p.type === 'ObjectProperty' ? this.expr(p.value, scope) : p.type === 'SpreadElement' ? this.expr(p.argument, scope) : EMPTY))
            .filter(matters),
        );
      case 'TemplateLiteral':
        return seq(e.expressions.map((x) => this.expr(x, scope)).filter(matters));
      case 'TaggedTemplateExpression':
        return this.expr(e.quasi, scope);
      case 'MemberExpression':
      case 'OptionalMemberExpression':
        return seq([this.expr(e.object, scope), ...(e.computed ? [this.expr(e.property, scope)] : [])].filter(matters));
      case 'Identifier':
        return this.valueUse(e, scope);
      case 'ImportExpression':
        return this.partial(scope, e, 'a dynamic import()');
      case 'YieldExpression':
        return this.partial(scope, e, 'a generator');
      default:
        // Literals, identifiers, functions not called (a function expression issues nothing until called).
        return EMPTY;
    }
  }

  private rebind(name: string, scope: Scope, bound: Bound): void {
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      if (s.names.has(name)) return void s.names.set(name, bound);
    }
  }

  private isPending(e: t.Node, scope: Scope): boolean {
    if (e.type !== 'Identifier') return false;
    const b = lookup(e.name, scope);
    return b?.kind === 'pending';
  }

  /** The shapes of arguments evaluated before a call; function arguments of an unknown callee that issue commands stop the analysis. */
  private args(args: t.Node[], scope: Scope, call: t.Node, what: string): ShapeNode {
    const items: ShapeNode[] = [];
    for (const a of args) {
      if (a.type === 'ArrowFunctionExpression' || a.type === 'FunctionExpression') {
        const body = this.callFunction(a, scope, []);
        if (matters(body)) items.push(this.partial(scope, call, `a callback passed to ${what}`));
        continue;
      }
      items.push(this.expr(a, scope));
    }
    return seq(items.filter(matters));
  }

  private call(e: t.CallExpression | t.OptionalCallExpression, scope: Scope): ShapeNode {
    const callee = e.callee;
    const at = this.loc(scope, e);
    // Promise.all([...]) and friends: parallel branches.
    if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 'Promise' && !lookup('Promise', scope)) {
      const method = keyName(callee.property, callee.computed);
      if (method && PARALLEL_METHODS.has(method)) return this.parallel(e.arguments[0], scope, at);
      if (method === 'resolve' || method === 'reject') return this.args(e.arguments, scope, e, `Promise.${method}()`);
    }
    // CancellationScope.cancellable(fn), .nonCancellable(fn), .withTimeout(ms, fn): fn runs at once, in a scope.
    if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && !callee.computed) {
      const owner = this.resolveCallee(callee.object, scope);
      const method = keyName(callee.property, false);
      if (owner.kind === 'primitive' && owner.name === 'CancellationScope' && method && ['cancellable', 'nonCancellable', 'withTimeout'].includes(method)) {
        const fnArg = e.arguments[method === 'withTimeout' ? 1 : 0];
        const fn = fnArg && this.functionOf(fnArg, scope);
        if (!fn || fn.kind !== 'function') return this.partial(scope, e, `CancellationScope.${method}() of a function the analysis cannot follow`);
        const body = this.callFunction(fn.fn, fn.scope, []);
        return seq([...(method === 'withTimeout' ? [command('timer', '', at)] : []), body].filter(matters));
      }
    }
    // Array.from(xs, cb): the callback once per element.
    if (
      callee.type === 'MemberExpression' &&
      callee.object.type === 'Identifier' &&
      callee.object.name === 'Array' &&
      !lookup('Array', scope) &&
      keyName(callee.property, callee.computed) === 'from'
    ) {
      const fn = e.arguments[1] && this.functionOf(e.arguments[1], scope);
      if (fn?.kind === 'function') {
        const body = this.callFunction(fn.fn, fn.scope, []);
        return seq([this.expr(e.arguments[0] as t.Node, scope), ...(matters(body) ? [{ kind: 'loop', body, at } as ShapeNode] : [])].filter(matters));
      }
    }
    // arr.map(cb), arr.forEach(cb): the callback once per element.
    if ((callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') && !callee.computed) {
      const method = keyName(callee.property, false);
      const cb = e.arguments[0];
      if (
        method &&
        ITERATING_METHODS.has(method) &&
        cb &&
        (cb.type === 'ArrowFunctionExpression' || cb.type === 'FunctionExpression' || cb.type === 'Identifier')
      ) {
        const object = this.expr(callee.object, scope);
        const fn = this.functionOf(cb, scope);
        if (fn?.kind === 'function') {
          const body = this.callFunction(fn.fn, fn.scope, []);
          const rest = this.args(e.arguments.slice(1), scope, e, `.${method}()`);
          return seq([object, ...(matters(body) ? [{ kind: 'loop', body, at } as ShapeNode] : []), rest].filter(matters));
        }
      }
      if (method === 'then' || method === 'catch' || method === 'finally') {
        const object = this.expr(callee.object, scope);
        const handlers = e.arguments.map((a) => {
          const fn = this.functionOf(a, scope);
          return fn?.kind === 'function' ? this.callFunction(fn.fn, fn.scope, []) : this.expr(a, scope);
        });
        // The handler runs after the promise settles: a wait, then its commands.
        const after = handlers.filter(matters);
        if (!after.length) return object;
        if (method === 'then' && after.length === 1) return seq([object, ...(issues(object) ? [{ kind: 'wait', at } as ShapeNode] : []), after[0]!]);
        return seq([object, this.partial(scope, e, `a .${method}() handler that issues commands`)]);
      }
    }
    const resolved = this.resolveCallee(callee, scope);
    switch (resolved.kind) {
      case 'activity': {
        // Temporal matches an activity's id on replay as well as its type: an id set in options is part of the command.
        const id = resolved.activityId;
        const issued =
          id && !id.ok
            ? this.partial(scope, e, 'a step whose activityId is not a static string')
            : command('activity', activityType(this.ctx.workflowName, resolved.name), at, id?.value);
        return seq([this.args(e.arguments, scope, e, 'a step'), issued].filter(matters));
      }
      case 'workflow':
        return seq([this.args(e.arguments, scope, e, 'a child workflow'), command('child', resolved.name, at)].filter(matters));
      case 'continue-as-new':
        return seq(
          [this.args(e.arguments, scope, e, 'continueAsNew'), command('continue-as-new', '', at), exitNode('return', at)].filter(
            (n) => matters(n) || n.kind === 'exit',
          ),
        );
      case 'function': {
        const args = e.arguments.map((a) => ({ node: a, scope }));
        const argShapes = seq(
          e.arguments
            .filter((a) => a.type !== 'ArrowFunctionExpression' && a.type !== 'FunctionExpression' && !this.commandRef(a, scope))
            .map((a) => this.expr(a, scope))
            .filter(matters),
        );
        const body = this.callFunction(resolved.fn, resolved.scope, args);
        return seq([argShapes, body].filter(matters));
      }
      case 'primitive':
        return this.primitive(resolved.name, e, scope, at);
      case 'unfollowable':
        return seq([this.args(e.arguments, scope, e, 'a call'), this.partial(scope, e, resolved.construct)].filter(matters));
      case 'none': {
        const bare = unwrapExpression(callee);
        const object = bare.type === 'MemberExpression' || bare.type === 'OptionalMemberExpression' ? this.expr(bare, scope) : EMPTY;
        return seq([object, this.args(e.arguments, scope, e, `${sourceKey(callee)}()`)].filter(matters));
      }
    }
  }

  private primitive(name: Primitive, e: t.CallExpression | t.OptionalCallExpression, scope: Scope, at: ShapeLocation): ShapeNode {
    const args = e.arguments;
    switch (name) {
      case 'sleep':
        return { kind: 'command', command: 'timer', type: '', at };
      case 'condition':
        // With a timeout the SDK starts a timer; either way the run waits until the condition holds (or it fires).
        return args.length >= 2 ? seq([command('timer', '', at), { kind: 'wait', at, condition: true }]) : { kind: 'wait', at, condition: true };
      case 'continueAsNew':
        return seq([
          { kind: 'command', command: 'continue-as-new', type: '', at },
          { kind: 'exit', how: 'return', at },
        ]);
      case 'patched': {
        const id = staticStringOf(args[0]);
        if (id === undefined) return this.partial(scope, e, 'patched() with an id that is not a literal');
        // Outside an `if` test: a marker for new runs, nothing for old ones.
        return { kind: 'patched', id, then: EMPTY, else: EMPTY, at };
      }
      case 'deprecatePatch': {
        // Records the marker for new runs and accepts its absence on replay: an optional marker.
        const id = staticStringOf(args[0]);
        if (id === undefined) return this.partial(scope, e, 'deprecatePatch() with an id that is not a literal');
        return { kind: 'patched', id, then: EMPTY, else: EMPTY, at, deprecated: true };
      }
      case 'sendHttpRequest':
        return { kind: 'command', command: 'activity', type: HTTP_REQUEST_ACTIVITY_TYPE, at };
      case 'sendPostRequestAndAwaitWebhook':
        return seq([
          { kind: 'command', command: 'activity', type: HTTP_REQUEST_ACTIVITY_TYPE, at },
          { kind: 'wait', at },
          { kind: 'wait', at },
        ]);
      case 'executeChild':
      case 'startChild': {
        const type = staticStringOf(args[0]);
        if (type === undefined) {
          const fromFn = args[0] && this.resolveCallee(args[0], scope);
          if (fromFn?.kind === 'workflow') return { kind: 'command', command: 'child', type: fromFn.name, at };
          return this.partial(scope, e, `${name}() of a workflow type that is not a literal`);
        }
        return { kind: 'command', command: 'child', type, at };
      }
      case 'executeInParallel': {
        const options = args[0];
        const jobs =
          options?.type === 'ObjectExpression'
            ? options.properties.find((p): p is t.ObjectProperty => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === 'jobs')
            : undefined;
        if (!jobs) return this.partial(scope, e, 'executeInParallel() with jobs the analysis cannot read');
        return this.parallel(jobs.value, scope, at, true);
      }
      case 'setHandler': {
        const signal = args[0] && this.signalName(args[0], scope);
        const handler = args[1] && this.functionOf(args[1], scope);
        if (!handler || handler.kind !== 'function') return EMPTY;
        const body = this.callFunction(handler.fn, handler.scope, []);
        if (!matters(body)) return EMPTY;
        if (signal === undefined) return this.partial(scope, e, 'a handler that issues commands, for a signal or update whose name is not a literal');
        this.ctx.handlers[signal] = body;
        return EMPTY;
      }
      case 'proxyActivities':
      case 'proxyLocalActivities':
        return EMPTY; // the proxy's members are resolved at their call (see resolveCallee)
      case 'defineSignal':
      case 'defineUpdate':
      case 'defineQuery':
      case 'CancellationScope':
        return EMPTY;
      case 'upsertSearchAttributes':
      case 'upsertMemo':
        return { kind: 'command', command: 'upsert', type: name === 'upsertMemo' ? 'memo' : 'search-attributes', at };
    }
  }

  /** Branches started together: an array literal of calls or thunks, or `xs.map(cb)` (one branch per element). */
  private parallel(arg: t.Node | undefined, scope: Scope, at: ShapeLocation, thunks = false): ShapeNode {
    if (!arg) return EMPTY;
    const branch = (node: t.Node): ShapeNode => {
      if (thunks) {
        const fn = this.functionOf(node, scope);
        if (fn?.kind === 'function') return this.callFunction(fn.fn, fn.scope, []);
      }
      return this.expr(node, scope);
    };
    if (arg.type === 'ArrayExpression') {
      const branches = arg.elements
        .filter((x): x is NonNullable<typeof x> => x !== null)
        .map((x) => (x.type === 'SpreadElement' ? this.spread(x, scope, at, thunks) : branch(x)));
      return branches.some(matters) ? { kind: 'parallel', branches, at } : EMPTY;
    }
    const isArrayFrom =
      arg.type === 'CallExpression' &&
      arg.callee.type === 'MemberExpression' &&
      arg.callee.object.type === 'Identifier' &&
      arg.callee.object.name === 'Array' &&
      keyName(arg.callee.property, arg.callee.computed) === 'from';
    if (
      arg.type === 'CallExpression' &&
      arg.callee.type === 'MemberExpression' &&
      (isArrayFrom || keyName(arg.callee.property, arg.callee.computed) === 'map')
    ) {
      const cb = arg.arguments[isArrayFrom ? 1 : 0];
      const fn = cb && this.functionOf(cb, scope);
      if (fn?.kind === 'function') {
        // `jobs: xs.map((x) => () => step(x))`: the callback returns a thunk; its body is the branch.
        const ret = fn.fn.body.type !== 'BlockStatement' ? fn.fn.body : undefined;
        const thunk = thunks && ret && (ret.type === 'ArrowFunctionExpression' || ret.type === 'FunctionExpression') ? ret : undefined;
        const body = thunk ? this.callFunction(thunk, { ...fn.scope, names: new Map(), parent: fn.scope }, []) : this.callFunction(fn.fn, fn.scope, []);
        const object = this.expr(isArrayFrom ? (arg.arguments[0] as t.Node) : arg.callee.object, scope);
        return seq([object, ...(matters(body) ? [{ kind: 'parallel', branches: [{ kind: 'loop', body, at }], at } as ShapeNode] : [])].filter(matters));
      }
    }
    const shape = this.expr(arg, scope);
    if (!matters(shape) && arg.type === 'Identifier' && lookup(arg.name, scope)?.kind !== 'pending') {
      // An array built elsewhere: only provable when nothing in it can be a command.
      return this.partial(scope, arg, 'parallel branches held in a variable');
    }
    return shape;
  }

  private spread(x: t.SpreadElement, scope: Scope, at: ShapeLocation, thunks: boolean): ShapeNode {
    const inner = this.parallel(x.argument, scope, at, thunks);
    return inner.kind === 'parallel' && inner.branches.length === 1 ? inner.branches[0]! : inner;
  }

  /** The name a `defineSignal('x')`/`defineUpdate('x')` value carries, directly or through a binding. */
  private signalName(node: t.Node, scope: Scope): string | undefined {
    if (node.type === 'CallExpression') {
      const c = this.resolveCallee(node.callee, scope);
      if (c.kind === 'primitive' && (c.name === 'defineSignal' || c.name === 'defineUpdate' || c.name === 'defineQuery'))
        return staticStringOf(node.arguments[0]);
      return undefined;
    }
    if (node.type !== 'Identifier') return undefined;
    const b = lookup(node.name, scope);
    if (b?.kind === 'signal') return b.name;
    if (b) return undefined;
    const found = this.moduleBinding(node.name, scope);
    if (found?.kind === 'signal') return found.name;
    return undefined;
  }

  /** What a callee expression is. */
  resolveCallee(callee: t.Node, scope: Scope): Callee {
    if (callee.type === 'TSNonNullExpression' || callee.type === 'ParenthesizedExpression' || callee.type === 'TSAsExpression')
      return this.resolveCallee(callee.expression, scope);
    if (callee.type === 'Identifier') return this.resolveName(callee.name, scope);
    if (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') {
      const prop = keyName(callee.property, callee.computed);
      // context.control.continueAsNew(...)
      if (prop === 'continueAsNew' && callee.object.type === 'MemberExpression' && callee.object.object.type === 'Identifier') {
        if (lookup(callee.object.object.name, scope)?.kind === 'context') return { kind: 'continue-as-new' };
      }
      if (callee.object.type === 'Identifier') {
        const b = lookup(callee.object.name, scope);
        if (b?.kind === 'proxy') {
          return prop === undefined
            ? { kind: 'unfollowable', construct: 'an activity called by a computed name' }
            : { kind: 'unfollowable', construct: `a proxyActivities() activity (${prop})` };
        }
        if (b) return b.kind === 'param' && prop === undefined ? { kind: 'unfollowable', construct: 'a computed member call' } : { kind: 'none' };
        const local = callee.object.name;
        const binding = scope.info.locals.get(local);
        if (binding?.kind === 'import' && binding.imported === '*') {
          if (prop === undefined) return { kind: 'unfollowable', construct: `a computed member of ${local}` };
          const r = this.resolveImport(scope.file, binding.source, prop, 0);
          return r.kind === 'signal' ? { kind: 'none' } : r;
        }
        // `const acts = proxyActivities(...)`: `acts.x()` or `acts[name]()` schedules an activity named by the key.
        if (this.isProxy(local, scope)) {
          return prop === undefined
            ? { kind: 'unfollowable', construct: 'an activity called by a computed name' }
            : { kind: 'unfollowable', construct: `a proxyActivities() activity (${prop})` };
        }
      }
      return { kind: 'none' };
    }
    if (callee.type === 'ArrowFunctionExpression' || callee.type === 'FunctionExpression') return { kind: 'function', fn: callee, scope };
    return { kind: 'none' };
  }

  private isProxy(name: string, scope: Scope): boolean {
    for (const stmt of scope.tree()?.body ?? []) {
      const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
      if (decl?.type !== 'VariableDeclaration') continue;
      for (const d of decl.declarations) {
        if (d.id.type === 'Identifier' && d.id.name === name && d.init?.type === 'CallExpression') {
          const c = this.resolveCallee(d.init.callee, scope);
          return c.kind === 'primitive' && (c.name === 'proxyActivities' || c.name === 'proxyLocalActivities');
        }
      }
    }
    return false;
  }

  private resolveName(name: string, scope: Scope): Callee {
    const b = lookup(name, scope);
    if (b) {
      if (b.kind === 'function') return { kind: 'function', fn: b.fn, scope: b.scope };
      if (b.kind === 'command') return b.callee;
      if (b.kind === 'param') return { kind: 'unfollowable', construct: `a call of ${name}, a function passed in as an argument` };
      if (b.kind === 'value' || b.kind === 'pending') return { kind: 'unfollowable', construct: `a call of ${name}, a value the analysis cannot follow` };
      return { kind: 'none' };
    }
    const found = this.moduleBinding(name, scope);
    if (!found) return { kind: 'none' };
    if (found.kind === 'signal') return { kind: 'none' };
    return found;
  }

  /** A top-level name of the scope's module: an import (followed), a function, or a definition. */
  private moduleBinding(name: string, scope: Scope): Callee | { kind: 'signal'; name: string } | undefined {
    const binding = scope.info.locals.get(name);
    if (!binding) return undefined;
    if (binding.kind === 'import') return this.resolveImport(scope.file, binding.source, binding.imported, 0);
    if (binding.kind === 'definition') {
      return this.definition(binding.definition, scope.file, name);
    }
    return this.topLevelValue(name, scope);
  }

  /** A top-level function or `defineSignal` const of a module, by name. */
  private topLevelValue(name: string, scope: Scope): Callee | { kind: 'signal'; name: string } | undefined {
    for (const stmt of scope.tree()?.body ?? []) {
      let decl: t.Node | null | undefined = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
      if (stmt.type === 'ExportDefaultDeclaration' && name === '\0default') decl = stmt.declaration;
      if (!decl) continue;
      if (decl.type === 'FunctionDeclaration' && (decl.id?.name === name || name === '\0default'))
        return { kind: 'function', fn: decl, scope: { ...scope, names: new Map(), parent: undefined } };
      if ((decl.type === 'ArrowFunctionExpression' || decl.type === 'FunctionExpression') && name === '\0default') return { kind: 'function', fn: decl, scope };
      if (decl.type === 'VariableDeclaration') {
        for (const d of decl.declarations) {
          if (d.id.type !== 'Identifier' || d.id.name !== name || !d.init) continue;
          const init = unwrapExpression(d.init);
          if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') return { kind: 'function', fn: init, scope };
          const signal = this.signalName(init, { ...scope, names: new Map(), parent: undefined });
          if (signal !== undefined) return { kind: 'signal', name: signal };
          if (init.type === 'Identifier') return this.moduleBinding(init.name, scope);
          // A value built by a call or a choice (`makeRunner()`, `a ? f : g`) may be a command: calling it is unprovable.
          if (
            init.type === 'CallExpression' ||
            init.type === 'ConditionalExpression' ||
            init.type === 'LogicalExpression' ||
            init.type === 'MemberExpression' ||
            init.type === 'AwaitExpression'
          ) {
            return { kind: 'unfollowable', construct: `a call of ${name}, a value built by an expression the analysis cannot follow` };
          }
          return { kind: 'none' };
        }
      }
    }
    return undefined;
  }

  /** The callee a definition is, its factory's files (when a factory call made it) counted among the files read. */
  private definition(definition: Definition, file: string, label: string): Callee {
    for (const f of definition.madeIn ?? []) this.ctx.files.add(f);
    return definitionCallee(definition, file, label);
  }

  /** What `imported` of `source` (written in `fromFile`) is (remembered per derivation). */
  private resolveImport(fromFile: string, source: string, imported: string, depth: number): Callee | { kind: 'signal'; name: string } {
    const memo = (this.ctx.memo ??= deriveMemo()).imports;
    const key = `${fromFile}\0${source}\0${imported}`;
    let entry = memo.get(key);
    if (!entry) {
      const outer = this.ctx.files;
      this.ctx.files = new Set();
      try {
        const answer = this.resolveImportOnce(fromFile, source, imported, depth);
        entry = { answer, files: [...this.ctx.files] };
      } finally {
        const read = this.ctx.files;
        this.ctx.files = outer;
        for (const f of read) outer.add(f);
      }
      memo.set(key, entry);
    } else for (const f of entry.files) this.ctx.files.add(f);
    return entry.answer;
  }

  private resolveImportOnce(fromFile: string, source: string, imported: string, depth: number): Callee | { kind: 'signal'; name: string } {
    if (PRIMITIVE_SOURCES.some((p) => p.test(source))) return PRIMITIVES.has(imported) ? { kind: 'primitive', name: imported as Primitive } : { kind: 'none' };
    if (!source.startsWith('.') && !source.startsWith('/')) return { kind: 'none' };
    if (depth > MAX_CALL_DEPTH) return { kind: 'unfollowable', construct: `re-exports of ${imported} nested deeper than ${MAX_CALL_DEPTH}` };
    const file = resolveRelativeImport(this.ctx.store.fs, fromFile, source);
    const target = this.moduleScope(file);
    if (!target) return { kind: 'none' };
    if (imported === '*') return { kind: 'none' };
    const binding = target.info.exports.get(imported);
    if (!binding) {
      for (const star of target.info.stars) {
        const r = this.resolveImport(file, star.source, imported, depth + 1);
        if (r.kind !== 'none') return r;
      }
      return { kind: 'none' };
    }
    switch (binding.kind) {
      case 'reexport':
        return this.resolveImport(file, binding.source, binding.imported, depth + 1);
      case 'definition': {
        return this.definition(binding.definition, file, imported);
      }
      case 'local':
        return this.moduleBinding(binding.local, target) ?? { kind: 'none' };
      case 'value':
        return this.topLevelValue(imported === 'default' ? '\0default' : imported, target) ?? { kind: 'none' };
    }
  }
}

function command(kind: CommandKind, type: string, at: ShapeLocation, activityId?: string): ShapeNode {
  return activityId === undefined ? { kind: 'command', command: kind, type, at } : { kind: 'command', command: kind, type, at, activityId };
}

/**
 * What calling `definition` (bound to `label` in `file`) issues: a child workflow, or an activity with the id its
 * options set; unfollowable when its name is not a literal; nothing for a definition of another kind.
 */
function definitionCallee(definition: Definition, file: string, label: string): Callee {
  const { name, activityId } = definition;
  if (!name.ok) return { kind: 'unfollowable', construct: `${label}, a definition whose name is not a literal` };
  const kind = kindOf(definition, file);
  if (kind === 'workflow') return { kind: 'workflow', name: name.value };
  if (kind === 'step' || kind === 'evaluator') return activityId ? { kind: 'activity', name: name.value, activityId } : { kind: 'activity', name: name.value };
  return { kind: 'none' };
}

function exitNode(how: 'return' | 'throw' | 'break' | 'continue', at: ShapeLocation): ShapeNode {
  return { kind: 'exit', how, at };
}

function lookup(name: string, scope: Scope | undefined): Bound | undefined {
  for (let s = scope; s; s = s.parent) {
    const b = s.names.get(name);
    if (b) return b;
  }
  return undefined;
}

function hasExit(node: ShapeNode): boolean {
  if (node.kind === 'exit') return true;
  if (node.kind === 'seq') return node.items.some(hasExit);
  if (node.kind === 'alt') return node.branches.some((b) => hasExit(b.body));
  return false;
}

function patternNames(node: t.Node): string[] {
  switch (node.type) {
    case 'Identifier':
      return [node.name];
    case 'ObjectPattern':
      return node.properties.flatMap((p) => (p.type === 'RestElement' ? patternNames(p.argument) : patternNames(p.value)));
    case 'ArrayPattern':
      return node.elements.flatMap((e) => (e ? patternNames(e) : []));
    case 'AssignmentPattern':
      return patternNames(node.left);
    case 'RestElement':
      return patternNames(node.argument);
    default:
      return [];
  }
}

/** A short, stable text of an expression, for deciding whether two versions make the same decision. */
export function sourceKey(node: t.Node): string {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'StringLiteral':
      return JSON.stringify(node.value);
    case 'NumericLiteral':
      return String(node.value);
    case 'BooleanLiteral':
      return String(node.value);
    case 'NullLiteral':
      return 'null';
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return `${sourceKey(node.object)}${node.computed ? `[${sourceKey(node.property)}]` : `.${keyName(node.property, false) ?? '?'}`}`;
    case 'CallExpression':
    case 'OptionalCallExpression':
      return `${sourceKey(node.callee)}(${node.arguments.map(sourceKey).join(',')})`;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return `(${sourceKey(node.left)}${node.operator}${sourceKey(node.right)})`;
    case 'UnaryExpression':
      return `${node.operator}${sourceKey(node.argument)}`;
    case 'AwaitExpression':
      return `await ${sourceKey(node.argument)}`;
    case 'TemplateLiteral':
      return `\`${node.quasis.map((q) => q.value.raw).join('${}')}\``;
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'ParenthesizedExpression':
      return sourceKey(node.expression);
    default:
      return node.type;
  }
}

/** `p` or `!p` as an `if` test, where `p` holds a `patched('id')` result: its name and the patch id. */
function patchResultTest(test: t.Node, scope: Scope): { name: string; id: string } | undefined {
  const tested = test.type === 'UnaryExpression' && test.operator === '!' ? test.argument : test;
  if (tested.type !== 'Identifier') return undefined;
  const bound = lookup(tested.name, scope);
  return bound?.kind === 'patch-result' ? { name: tested.name, id: bound.id } : undefined;
}
