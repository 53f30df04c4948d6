/**
 * The single traversal every analysis shares (discovery's module facts and every validator rule): a depth-first walk of a Babel AST (children in
 * `VISITOR_KEYS` order, so in source order) that calls each rule's visitor for the node's type, with a
 * small `RulePath` (node, parent, scope) in the image of @babel/traverse's `NodePath`.
 *
 * Why not @babel/traverse: it allocates a full NodePath and crawls scopes with every feature rules never
 * use; on the benchmark package this walker plus its lexical scopes is several times cheaper, which is
 * what keeps validation above 2,000 files/s. Scopes follow JavaScript: functions (params, `var`,
 * hoisted function declarations), blocks (`let`, `const`, `class`), `for` heads, `catch` clauses, and
 * the module scope (imports). The visitors come merged in a `VisitorTable` (declared here, built by `mergeVisitors` in visitor-table.ts); when every one of them
 * acts at module level only, the walk does not enter functions or instance field initializers.
 */
import { createRequire } from 'node:module';
import type { Identifier, LVal, Node, Statement } from '@babel/types';
import { VISITOR_KEYS } from './generated/visitor-keys.js';

type IsReferenced = (node: Node, parent: Node, grandparent?: Node) => boolean;
let isReferencedOfBabel: IsReferenced | undefined;

/**
 * @babel/types' `isReferenced`, loaded on its first use: the module builds every node definition when it loads
 * (16–25 ms), which a walk whose rules never ask whether an identifier is a reference (the `--cache` fast path
 * re-deriving one edited file, most often) does not pay. The walk's child keys come from a table generated from
 * the same package (generated/visitor-keys.ts).
 */
function isReferenced(node: Node, parent: Node, grandparent?: Node): boolean {
  isReferencedOfBabel ??= (createRequire(import.meta.url)('@babel/types') as { isReferenced: IsReferenced }).isReferenced;
  return isReferencedOfBabel(node, parent, grandparent);
}

/** How a name was declared (Babel's binding kinds). */
export type BindingKind = 'var' | 'let' | 'const' | 'module' | 'hoisted' | 'param' | 'local';

/** A declared name: the identifier that declares it, how, and where. */
export interface Binding {
  identifier: Identifier;
  kind: BindingKind;
  /** The declaring node's path: a `VariableDeclarator` for variables, else the declaration itself. */
  path: RulePath;
  scope: Scope;
}

const NO_BINDINGS: ReadonlyMap<string, Binding> = new Map();

/** A lexical scope. Most scopes (arrow functions, blocks) declare nothing, so the map is made on the first declaration. */
export class Scope {
  #bindings: Map<string, Binding> | undefined;

  constructor(
    readonly path: RulePath,
    readonly parent: Scope | null,
  ) {}

  /** The names declared in this scope. */
  get bindings(): ReadonlyMap<string, Binding> {
    return this.#bindings ?? NO_BINDINGS;
  }

  /** The binding `name` resolves to from this scope, or undefined for a global. */
  getBinding(name: string): Binding | undefined {
    const own = this.#bindings?.get(name);
    if (own) return own;
    for (let s = this.parent; s; s = s.parent) {
      const b = s.#bindings?.get(name);
      if (b) return b;
    }
    return undefined;
  }

  /** True when `name` is declared in this scope or an enclosing one (globals never count). */
  hasBinding(name: string, _options?: { noGlobals?: boolean }): boolean {
    return this.getBinding(name) !== undefined;
  }

  /** Declares `id` here (the first declaration of a name wins, as for `var` re-declarations). */
  declare(id: Identifier, kind: BindingKind, path: RulePath): void {
    const bindings = (this.#bindings ??= new Map());
    if (!bindings.has(id.name)) bindings.set(id.name, { identifier: id, kind, path, scope: this });
  }
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

/** A node in the walk, with its parent chain and scope. */
export class RulePath<N extends Node = Node> {
  constructor(
    readonly node: N,
    readonly parentPath: RulePath | null,
    public scope: Scope,
  ) {}

  /** The parent node (for the Program: the File). */
  get parent(): Node {
    return this.parentPath?.node ?? this.node;
  }

  isProgram(): boolean {
    return this.node.type === 'Program';
  }

  isVariableDeclarator(): this is RulePath<Extract<Node, { type: 'VariableDeclarator' }>> {
    return this.node.type === 'VariableDeclarator';
  }

  /** True for an identifier read as a value (not a property key, a declaration, a label…). */
  isReferencedIdentifier(): boolean {
    if (this.node.type !== 'Identifier' || !this.parentPath) return false;
    return isReferenced(this.node, this.parentPath.node, this.parentPath.parentPath?.node);
  }

  /** The nearest enclosing function, or null at module level. */
  getFunctionParent(): RulePath | null {
    for (let p = this.parentPath; p; p = p.parentPath) if (FUNCTION_TYPES.has(p.node.type)) return p;
    return null;
  }
}

/** Names declared by a binding pattern (`a`, `{ a, b: [c] }`, `...d`, `e = 1`). */
export function patternIdentifiers(pattern: LVal | Node | null | undefined, out: Identifier[]): Identifier[] {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'Identifier':
      out.push(pattern);
      break;
    case 'ObjectPattern':
      for (const p of pattern.properties) patternIdentifiers(p.type === 'RestElement' ? p.argument : p.value, out);
      break;
    case 'ArrayPattern':
      for (const e of pattern.elements) patternIdentifiers(e, out);
      break;
    case 'AssignmentPattern':
      patternIdentifiers(pattern.left, out);
      break;
    case 'RestElement':
      patternIdentifiers(pattern.argument, out);
      break;
    case 'TSParameterProperty':
      patternIdentifiers(pattern.parameter, out);
      break;
    default:
      break;
  }
  return out;
}

/** The declaration an `export` statement carries (`export const a`, `export default function f`), else the statement. */
function declarationOf(stmt: Statement): Node {
  return (stmt.type === 'ExportNamedDeclaration' || stmt.type === 'ExportDefaultDeclaration') && stmt.declaration ? stmt.declaration : stmt;
}

/** Declares the lexical (`let`/`const`/`class`/function-in-block) names of a statement list in `scope`. */
function declareLexical(statements: readonly Statement[], scope: Scope, blockIsFunctionScope: boolean): void {
  for (const stmt of statements) {
    const decl = declarationOf(stmt);
    if (decl.type === 'VariableDeclaration' && decl.kind !== 'var') {
      for (const d of decl.declarations) {
        const path = new RulePath(d, null, scope);
        for (const id of patternIdentifiers(d.id, [])) scope.declare(id, decl.kind === 'const' ? 'const' : 'let', path);
      }
    } else if (decl.type === 'ClassDeclaration' && decl.id) {
      scope.declare(decl.id, 'let', new RulePath(decl, null, scope));
    } else if (decl.type === 'FunctionDeclaration' && decl.id && !blockIsFunctionScope) {
      scope.declare(decl.id, 'let', new RulePath(decl, null, scope));
    } else if (decl.type === 'ImportDeclaration') {
      for (const s of decl.specifiers) scope.declare(s.local, 'module', new RulePath(s, null, scope));
    }
  }
}

/** Declares the hoisted function declarations and `var` names of a function (or module, or static block) body. */
function declareHoisted(statements: readonly Statement[], scope: Scope): void {
  for (const stmt of statements) {
    const decl = declarationOf(stmt);
    if (decl.type === 'FunctionDeclaration' && decl.id) scope.declare(decl.id, 'hoisted', new RulePath(decl, null, scope));
    else declareVars(decl, scope);
  }
}

/** Declares the `var` names of a statement and of the statements nested in it (not those of nested functions). */
function declareVars(stmt: Node | null | undefined, scope: Scope): void {
  switch (stmt?.type) {
    case 'VariableDeclaration':
      if (stmt.kind === 'var') {
        for (const d of stmt.declarations) {
          const path = new RulePath(d, null, scope);
          for (const id of patternIdentifiers(d.id, [])) scope.declare(id, 'var', path);
        }
      }
      break;
    case 'BlockStatement':
      for (const s of stmt.body) declareVars(s, scope);
      break;
    case 'IfStatement':
      declareVars(stmt.consequent, scope);
      declareVars(stmt.alternate, scope);
      break;
    case 'ForStatement':
      declareVars(stmt.init, scope);
      declareVars(stmt.body, scope);
      break;
    case 'ForInStatement':
    case 'ForOfStatement':
      declareVars(stmt.left, scope);
      declareVars(stmt.body, scope);
      break;
    case 'WhileStatement':
    case 'DoWhileStatement':
    case 'LabeledStatement':
    case 'WithStatement':
      declareVars(stmt.body, scope);
      break;
    case 'TryStatement':
      declareVars(stmt.block, scope);
      declareVars(stmt.handler?.body, scope);
      declareVars(stmt.finalizer, scope);
      break;
    case 'SwitchStatement':
      for (const c of stmt.cases) for (const s of c.consequent) declareVars(s, scope);
      break;
    default:
      break;
  }
}

/** Creates the scope a node opens, if it opens one, with its declarations. */
function scopeFor(path: RulePath, parentScope: Scope): Scope {
  const node = path.node;
  switch (node.type) {
    case 'Program': {
      const scope = new Scope(path, null);
      declareLexical(node.body, scope, true);
      declareHoisted(node.body, scope);
      return scope;
    }
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
    case 'ObjectMethod':
    case 'ClassMethod':
    case 'ClassPrivateMethod': {
      const scope = new Scope(path, parentScope);
      if (node.type === 'FunctionExpression' && node.id) scope.declare(node.id, 'local', path);
      for (const param of node.params) for (const id of patternIdentifiers(param, [])) scope.declare(id, 'param', path);
      if (node.body.type === 'BlockStatement') {
        declareLexical(node.body.body, scope, true);
        declareHoisted(node.body.body, scope);
      }
      return scope;
    }
    case 'BlockStatement': {
      const parent = path.parentPath?.node;
      if (parent && FUNCTION_TYPES.has(parent.type)) return parentScope;
      const scope = new Scope(path, parentScope);
      declareLexical(node.body, scope, false);
      return scope;
    }
    case 'StaticBlock': {
      const scope = new Scope(path, parentScope);
      declareLexical(node.body, scope, false);
      declareHoisted(node.body, scope);
      return scope;
    }
    case 'ForStatement':
    case 'ForInStatement':
    case 'ForOfStatement': {
      const head = node.type === 'ForStatement' ? node.init : node.left;
      if (head?.type !== 'VariableDeclaration' || head.kind === 'var') return parentScope;
      const scope = new Scope(path, parentScope);
      declareLexical([head], scope, false);
      return scope;
    }
    case 'CatchClause': {
      const scope = new Scope(path, parentScope);
      for (const id of patternIdentifiers(node.param, [])) scope.declare(id, 'let', path);
      return scope;
    }
    case 'SwitchStatement': {
      const scope = new Scope(path, parentScope);
      for (const c of node.cases) declareLexical(c.consequent, scope, false);
      return scope;
    }
    default:
      return parentScope;
  }
}

/** Child keys that hold only TypeScript types (never evaluated, so no rule looks inside them). */
const TYPE_ONLY_KEYS = new Set([
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeParameters',
  'superTypeArguments',
  'implements',
  'predicate',
]);

/** TypeScript nodes that hold runtime code; every other `TS*` node is a type and is not walked. */
const VALUE_TS_NODES = new Set([
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
  'TSParameterProperty',
  'TSEnumDeclaration',
  'TSEnumBody',
  'TSEnumMember',
  'TSModuleDeclaration',
  'TSModuleBlock',
  'TSExportAssignment',
  'TSImportEqualsDeclaration',
  'TSExternalModuleReference',
]);

/** True for a node type that is walked: any JavaScript node, and the TypeScript nodes that carry values. */
function isWalkedType(type: string): boolean {
  return !type.startsWith('TS') || VALUE_TS_NODES.has(type);
}

/** `TypeInfo.flags`: the node may open a scope (`scopeFor` has a case for its type). */
const OPENS_SCOPE = 1;
/** `TypeInfo.flags`: a function: nothing below it is at module level. */
const FUNCTION = 2;
/** `TypeInfo.flags`: a class field: nothing below it is at module level unless it is static. */
const CLASS_FIELD = 4;

const SCOPE_TYPES = new Set([
  'Program',
  ...FUNCTION_TYPES,
  'BlockStatement',
  'StaticBlock',
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'CatchClause',
  'SwitchStatement',
]);
const CLASS_FIELD_TYPES = new Set(['ClassProperty', 'ClassPrivateProperty', 'ClassAccessorProperty']);

/** What the walk needs to know of a node type: the child keys that may hold walked nodes, and `flags`. */
interface TypeInfo {
  /** `VISITOR_KEYS` of the type without the type-only ones. */
  readonly keys: readonly string[];
  /** `OPENS_SCOPE`, `FUNCTION`, `CLASS_FIELD`. */
  readonly flags: number;
}

/**
 * Per node type, its `TypeInfo`, or null for a type that is not walked; worked out once per type, so the walk does one
 * map lookup per node (a switch over every scope-opening type and a set lookup per node before: ~15% of the walk).
 */
const TYPE_INFO = new Map<string, TypeInfo | null>();

function typeInfoOf(type: string): TypeInfo | null {
  let info = TYPE_INFO.get(type);
  if (info === undefined) {
    const flags = (SCOPE_TYPES.has(type) ? OPENS_SCOPE : 0) | (FUNCTION_TYPES.has(type) ? FUNCTION : 0) | (CLASS_FIELD_TYPES.has(type) ? CLASS_FIELD : 0);
    info = isWalkedType(type) ? { keys: (VISITOR_KEYS[type] ?? []).filter((k) => !TYPE_ONLY_KEYS.has(k)), flags } : null;
    TYPE_INFO.set(type, info);
  }
  return info;
}

/**
 * For a function or class field (`flags` holds `FUNCTION` or `CLASS_FIELD`): true when its children are not at module
 * level (any function; a class field initialized per instance).
 */
function endsModuleLevel(node: Node, flags: number): boolean {
  return (flags & FUNCTION) !== 0 || !(node as { static?: boolean }).static;
}

/** A visitor function as the walk calls it. */
export type AnyVisit = (path: RulePath) => void;

/** Visitors merged for one walk: node type → every rule's function, in rule order. */
export interface VisitorTable {
  readonly byType: ReadonlyMap<string, AnyVisit[]>;
  /**
   * True when every function in `byType` has effects at module level only, so the walk does not enter functions or
   * non-static class fields (it still calls the visitors of the function or field node itself).
   */
  readonly moduleLevelOnly: boolean;
}

/**
 * Walks `root` (a File or Program) once, calling `table`'s visitors on entering each node; with
 * `table.moduleLevelOnly`, nodes below a function or a non-static class field are not visited.
 * Throws only what a visitor throws (or a RangeError for absurdly deep trees); the engine reports both.
 */
export function walk(root: Node, table: VisitorTable): void {
  if (table.byType.size === 0) return; // nothing would see any node
  const program = root.type === 'File' ? root.program : root;
  const placeholder = new Scope(null as unknown as RulePath, null);
  const byType = table.byType;
  const moduleLevelOnly = table.moduleLevelOnly;
  const visit = (node: Node, info: TypeInfo, parentPath: RulePath | null, parentScope: Scope): void => {
    const fns = byType.get(node.type);
    const flags = info.flags;
    // A node's path is made only when something sees it: its visitors, the scope it opens, or its first child (as the
    // parent); most leaves (identifiers, literals) need none (~10% of the walk's time cold).
    let path = fns !== undefined || (flags & OPENS_SCOPE) !== 0 ? new RulePath(node, parentPath, parentScope) : null;
    if (moduleLevelOnly && (flags & (FUNCTION | CLASS_FIELD)) !== 0 && endsModuleLevel(node, flags)) {
      if (fns === undefined) return;
      const visited = path as RulePath;
      visited.scope = scopeFor(visited, parentScope);
      for (let i = 0; i < fns.length; i++) (fns[i] as AnyVisit)(visited);
      return;
    }
    const scope = (flags & OPENS_SCOPE) !== 0 ? ((path as RulePath).scope = scopeFor(path as RulePath, parentScope)) : parentScope;
    if (fns !== undefined) for (let i = 0; i < fns.length; i++) (fns[i] as AnyVisit)(path as RulePath);
    const keys = info.keys;
    for (let k = 0; k < keys.length; k++) {
      const child = (node as unknown as Record<string, unknown>)[keys[k] as string] as Node | Node[] | null | undefined;
      if (child === null || child === undefined) continue;
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const item = child[i];
          if (item === null || item === undefined) continue; // array holes: `[, a]`
          const itemInfo = typeInfoOf(item.type);
          if (itemInfo !== null) visit(item, itemInfo, (path ??= new RulePath(node, parentPath, scope)), scope);
        }
      } else if (typeof child.type === 'string') {
        const childInfo = typeInfoOf(child.type);
        if (childInfo !== null) visit(child, childInfo, (path ??= new RulePath(node, parentPath, scope)), scope);
      }
    }
  };
  visit(program, typeInfoOf(program.type) as TypeInfo, null, placeholder);
}
