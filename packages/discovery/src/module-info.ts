/**
 * One pass over the top level of one parsed module, turning its AST into the static facts discovery needs: imports,
 * exports, re-exports, `workflow()` / `step()` / `evaluator()` definitions with their static names, and
 * `export * as ns` (a form package rule 3 does not support). The file's single traversal adds its import sites and
 * the other unsupported forms (unsupported-forms.ts). Rules read this data; they never parse or traverse again.
 */
import type * as t from '@babel/types';
import { positionOf, type Position } from './finding.js';
import type { ImportSite } from './import-sites.js';
import { isRelative } from './module-path.js';
import { keyName, literalPropertyAt, staticStringOf, unwrapExpression } from './static-values.js';
import { patternIdentifiers } from './traverse.js';
import type { UnsupportedForm } from './unsupported-forms.js';

/** Where a step's or evaluator's config sets the id of the activity it schedules. */
export const ACTIVITY_ID_PATH = ['options', 'activityOptions', 'activityId'] as const;

export type { UnsupportedForm } from './unsupported-forms.js';

/** The module whose `workflow`, `step` and `evaluator` exports are the authoring API (with its subpaths). */
export const AUTHORING_MODULE = '@skein/core';

/** A statically read string, or where reading it failed. */
export type StaticString = { ok: true; value: string; position: Position } | { ok: false; position: Position };

/**
 * A `workflow({...})`, `step({...})` or `evaluator({...})` call, or a wrapper factory: any other call whose first
 * argument is an object literal with a static `name` (`evalWorkflow({ name: 'x', ... })`, `verify({ name, ... })`),
 * whose kind the file's convention decides (`wrapper`).
 */
export interface Definition {
  callee: 'workflow' | 'step' | 'evaluator' | 'wrapper';
  /** The callee as written (`workflow`, `core.step`, `evalWorkflow`), for messages. */
  calleeName: string;
  position: Position;
  /** The `name` property, read statically. */
  name: StaticString;
  /** The `aliases` elements (workflows only); an empty list when absent. */
  aliases: StaticString[];
  /**
   * A step's or evaluator's `options.activityOptions.activityId` as written in the config's object literals (Temporal
   * matches an activity's id on replay): absent when none is written there (one held in a variable or a spread is
   * not read); `ok: false` when its value is not a static string.
   */
  activityId?: StaticString;
  /**
   * For a definition a factory call makes (factories.ts): the other files its factory was read from, the module that
   * declares it and the re-exports on the way (what it is depends on them, as much as on this module).
   */
  madeIn?: string[];
}

/** One specifier of an `import` declaration. `imported` is `default`, an export name, or `*` for a namespace. */
export interface ImportSpecifierInfo {
  local: string;
  imported: string;
  position: Position;
  /** Set for a TypeScript type-only import (`import type { A }`, `import { type A }`): erased, never linked. */
  typeOnly?: true;
}

/** One `import … from 'source'` declaration. */
export interface ImportInfo {
  source: string;
  position: Position;
  specifiers: ImportSpecifierInfo[];
}

/**
 * A top-level function that returns a definition named by one of its parameters (a factory):
 * `function httpStep(name: string, url: string) { return step({ name, … }); }`, `const judge = (name) => evaluator({ name, … })`.
 * Calls of it (`export const fetchUsers = httpStep('fetchUsers', url)`) define what it returns, named by their
 * argument (linked across modules by `linkFactoryCalls`, factories.ts).
 */
export interface Factory {
  /** The definition the function returns, with `name` read from its argument at `nameParam` (or statically, when written so). */
  definition: Omit<Definition, 'name' | 'position'> & { name?: StaticString };
  /** The index of the parameter whose argument is the name; absent when `definition.name` is written in the body. */
  nameParam?: number;
}

/** A top-level value made by calling a plain identifier (`httpStep('fetchUsers', url)`): a possible factory call. */
export interface FactoryCall {
  /** The callee's local name. */
  callee: string;
  position: Position;
  /** Each argument read statically (a string), or where it is; spreads end the list. */
  args: StaticString[];
}

/** A binding that is neither a definition nor an import: what it reads, and when it is a factory or a call of one. */
export interface ValueBinding {
  kind: 'value';
  references: Reference[];
  position: Position;
  /** Set for a function: a function declaration, or a function expression or arrow function (in TypeScript's wrappers). */
  function?: true;
  /** Set for a function that is a factory. */
  factory?: Factory;
  /** Set for a value made by calling a plain identifier. */
  call?: FactoryCall;
  /**
   * Set for a value that is another top-level binding itself (`export const alias = greet`, TypeScript's `as` and
   * `satisfies` wrappers included): the binding's name, followed as `export { greet as alias }` is.
   */
  alias?: string;
}

/** What one export name of the module is bound to. */
export type ExportBinding =
  | { kind: 'reexport'; source: string; imported: string; position: Position; sourcePosition: Position }
  | { kind: 'local'; local: string; position: Position }
  | { kind: 'definition'; definition: Definition; position: Position }
  | ValueBinding;

/** An identifier read inside an exported value (for runtime export assembly). */
export interface Reference {
  name: string;
  position: Position;
}

/** A top-level binding of the module. */
export type LocalBinding =
  { kind: 'import'; source: string; imported: string; position: Position } | { kind: 'definition'; definition: Definition; position: Position } | ValueBinding;

/** Static facts about one module. */
export interface ModuleInfo {
  file: string;
  imports: ImportInfo[];
  /** Export name → binding, in source order. */
  exports: Map<string, ExportBinding>;
  /** `export * from 'source'` declarations, in source order. */
  stars: { source: string; position: Position; sourcePosition: Position }[];
  locals: Map<string, LocalBinding>;
  /** Every import site, in source order (filled by the file's traversal: see `moduleFactsVisitors` in unsupported-forms.ts). */
  importSites: ImportSite[];
  /** Sorted by position (complete after the file's traversal). */
  unsupported: UnsupportedForm[];
  /**
   * Names the module exports through declarations `exports` does not hold: TypeScript's types, interfaces, enums,
   * namespaces, declared functions and `export import`. Absent in facts of an older release (then nothing is known
   * to be missing from the module).
   */
  otherExports?: string[];
  /** Set when the module's export names cannot all be listed (`export const { a, b } = …`, `export =`). */
  openExports?: true;
}

/**
 * Whether the module of `info` exports `name` itself: a binding, a TypeScript declaration, or `export * as name`
 * (its `export *` are not followed). Undefined when its export names cannot all be listed: facts of an older
 * release, CommonJS forms, `export =`, a destructured export.
 */
export function ownExport(info: ModuleInfo, name: string): boolean | undefined {
  if (info.otherExports === undefined || info.openExports || info.unsupported.some((u) => u.kind === 'commonjs')) return undefined;
  return info.exports.has(name) || info.otherExports.includes(name) || info.unsupported.some((u) => u.kind === 'namespace-reexport' && u.exported === name);
}

/**
 * Whether the module of `info` exports `name`, or might: true unless every export of it is known (`ownExport`) and
 * none is `name`, following its `export *` through `next` (`export *` never carries `default`). `next(file, source)`
 * gives the facts of the module a relative `export *` names, or undefined when they are not known (a module that
 * does not exist or cannot be read: it might provide any name); a star of a bare specifier might too. A circle of
 * `export *` adds nothing.
 */
export function mayExport(info: ModuleInfo, name: string, next: (file: string, source: string) => ModuleInfo | undefined, seen = new Set<string>()): boolean {
  if (seen.has(info.file)) return false;
  seen.add(info.file);
  if (ownExport(info, name) !== false) return true;
  if (name === 'default') return false;
  for (const star of info.stars) {
    const target = isRelative(star.source) ? next(info.file, star.source) : undefined;
    if (target === undefined || mayExport(target, name, next, seen)) return true;
  }
  return false;
}

type AuthoringName = Definition['callee'];
const AUTHORING_NAMES = new Set<string>(['workflow', 'step', 'evaluator']);

/** True for `@skein/core` and its subpaths (`@skein/core/workflow`). */
export function isAuthoringSource(source: string): boolean {
  return source === AUTHORING_MODULE || source.startsWith(`${AUTHORING_MODULE}/`);
}

function exportedName(node: t.Identifier | t.StringLiteral): string {
  return node.type === 'Identifier' ? node.name : node.value;
}

const SKIPPED_KEYS = new Set(['loc', 'start', 'end', 'range', 'extra', 'leadingComments', 'trailingComments', 'innerComments', 'errors', 'tokens', 'comments']);

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

/** True when `node` holds a `return` of its own function (not one of a function nested in it). */
function returnsIn(node: t.Node): boolean {
  if (node.type === 'ReturnStatement') return true;
  if (FUNCTION_TYPES.has(node.type)) return false;
  for (const key in node) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) if (child && typeof (child as t.Node).type === 'string' && returnsIn(child as t.Node)) return true;
  }
  return false;
}

/** Visits every node under `node` depth-first (parents before children). */
function walk(node: t.Node, visit: (n: t.Node) => void): void {
  visit(node);
  for (const key in node) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof (item as t.Node).type === 'string') walk(item as t.Node, visit);
    } else if (value && typeof (value as t.Node).type === 'string') {
      walk(value as t.Node, visit);
    }
  }
}

/** Identifiers an expression reads (object keys and non-computed member properties excluded). */
function referencesOf(expr: t.Node): Reference[] {
  const refs: Reference[] = [];
  const excluded = new Set<t.Node>();
  walk(expr, (n) => {
    if ((n.type === 'ObjectProperty' || n.type === 'ObjectMethod') && !n.computed) excluded.add(n.key);
    if ((n.type === 'MemberExpression' || n.type === 'OptionalMemberExpression') && !n.computed) excluded.add(n.property);
    if (n.type === 'Identifier' && !excluded.has(n)) refs.push({ name: n.name, position: positionOf(n) });
  });
  return refs;
}

/**
 * Reads one parsed module. `program` is the Babel `Program`; the result is plain data.
 * Reads top-level statements only; import sites and the unsupported forms anywhere in the tree come from the visitors
 * of `moduleFactsVisitors` (unsupported-forms.ts), which run in the file's single traversal.
 * Definitions are `workflow`/`step`/`evaluator` imported from `@skein/core` (or a subpath), directly or as a
 * namespace member (`core.workflow(...)`), and wrapper factories (any call with an object literal holding a static
 * `name`; package rule 1).
 */
export function analyzeModule(file: string, program: t.Program): ModuleInfo {
  const imports: ImportInfo[] = [];
  const exports = new Map<string, ExportBinding>();
  const stars: ModuleInfo['stars'] = [];
  const locals = new Map<string, LocalBinding>();
  const unsupported: UnsupportedForm[] = [];
  const constStrings = new Map<string, string>();
  const authoring = new Map<string, AuthoringName>();
  const authoringNamespaces = new Set<string>();

  // Imports and const strings first: definitions anywhere in the module may use them.
  for (const stmt of program.body) {
    if (stmt.type === 'ImportDeclaration') {
      const source = stmt.source.value;
      const info: ImportInfo = { source, position: positionOf(stmt), specifiers: [] };
      for (const s of stmt.specifiers) {
        const imported = s.type === 'ImportDefaultSpecifier' ? 'default' : s.type === 'ImportNamespaceSpecifier' ? '*' : exportedName(s.imported);
        const specifier: ImportSpecifierInfo = { local: s.local.name, imported, position: positionOf(s) };
        if (
          stmt.importKind === 'type' ||
          stmt.importKind === 'typeof' ||
          (s.type === 'ImportSpecifier' && (s.importKind === 'type' || s.importKind === 'typeof'))
        )
          specifier.typeOnly = true;
        info.specifiers.push(specifier);
        locals.set(s.local.name, { kind: 'import', source, imported, position: positionOf(s) });
        if (isAuthoringSource(source)) {
          if (imported === '*') authoringNamespaces.add(s.local.name);
          else if (AUTHORING_NAMES.has(imported)) authoring.set(s.local.name, imported as AuthoringName);
        }
      }
      imports.push(info);
    }
    const decl = stmt.type === 'ExportNamedDeclaration' ? stmt.declaration : stmt;
    if (decl?.type === 'VariableDeclaration' && decl.kind === 'const') {
      for (const d of decl.declarations) {
        const value = staticStringOf(d.init);
        if (d.id.type === 'Identifier' && value !== undefined) constStrings.set(d.id.name, value);
      }
    }
  }

  const readString = (node: t.Node | null | undefined, fallback: Position): StaticString => {
    if (!node) return { ok: false, position: fallback };
    const direct = staticStringOf(node);
    if (direct !== undefined) return { ok: true, value: direct, position: positionOf(node) };
    const bare = unwrapExpression(node);
    if (bare.type === 'Identifier' && constStrings.has(bare.name)) {
      return { ok: true, value: constStrings.get(bare.name) as string, position: positionOf(node) };
    }
    return { ok: false, position: positionOf(node) };
  };

  /**
   * The definition `node` makes, when it is one. Inside a factory's body, `params` names its parameters: a `name`
   * written as one of them is read from the call's argument (`nameParam`), and a wrapper factory's call counts with it.
   */
  const definitionOf = (node: t.Node | null | undefined, params?: ReadonlyMap<string, number>): (Definition & { nameParam?: number }) | undefined => {
    if (node) node = unwrapExpression(node);
    if (!node || node.type !== 'CallExpression') return undefined;
    const callee = node.callee;
    let kind: Definition['callee'] | undefined;
    let calleeName = '';
    if (callee.type === 'Identifier') {
      kind = authoring.get(callee.name);
      calleeName = callee.name;
    } else if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier') {
      const prop = keyName(callee.property, callee.computed);
      calleeName = `${callee.object.name}.${prop ?? '[…]'}`;
      if (authoringNamespaces.has(callee.object.name) && prop && AUTHORING_NAMES.has(prop)) kind = prop as AuthoringName;
    }
    const position = positionOf(node);
    const paramOf = (value: t.Node): number | undefined => {
      const bare = unwrapExpression(value);
      return bare.type === 'Identifier' ? params?.get(bare.name) : undefined;
    };
    // `step({ … } satisfies StepOptions)`, `workflow(<Options>{ … })`: the literal inside the TypeScript wrappers.
    const argument = node.arguments[0];
    const config = argument ? unwrapExpression(argument) : argument;
    if (!kind) {
      // A wrapper factory counts only with an object literal whose `name` is static (so `z.object({ name: z.string() })` never does).
      if (!config || config.type !== 'ObjectExpression' || !calleeName) return undefined;
      const nameProp = config.properties.find((p): p is t.ObjectProperty => p.type === 'ObjectProperty' && keyName(p.key, p.computed) === 'name');
      const name = nameProp ? readString(nameProp.value, positionOf(nameProp)) : undefined;
      if (!name?.ok && (nameProp === undefined || paramOf(nameProp.value) === undefined)) return undefined;
      kind = 'wrapper';
    }
    if (!config || config.type !== 'ObjectExpression') {
      return { callee: kind, calleeName, position, name: { ok: false, position: config ? positionOf(config) : position }, aliases: [] };
    }
    let name: StaticString = { ok: false, position: positionOf(config) };
    let nameParam: number | undefined;
    let aliases: StaticString[] = [];
    for (const p of config.properties) {
      if (p.type !== 'ObjectProperty') continue;
      const key = keyName(p.key, p.computed);
      if (key === 'name') {
        nameParam = paramOf(p.value);
        name = nameParam === undefined ? readString(p.value, positionOf(p)) : { ok: false, position: positionOf(p) };
      }
      if (key === 'aliases' && (kind === 'workflow' || kind === 'wrapper')) {
        const list = unwrapExpression(p.value); // `['old-name'] as const`
        aliases =
          list.type === 'ArrayExpression'
            ? list.elements.map((e) =>
                e && e.type !== 'SpreadElement' ? readString(e, positionOf(e)) : { ok: false, position: e ? positionOf(e) : positionOf(list) },
              )
            : [{ ok: false, position: positionOf(p.value) }];
      }
    }
    const idNode = kind === 'step' || kind === 'evaluator' ? literalPropertyAt(config, ACTIVITY_ID_PATH) : undefined;
    return {
      callee: kind,
      calleeName,
      position,
      name,
      aliases,
      ...(idNode ? { activityId: readString(idNode, positionOf(idNode)) } : {}),
      ...(nameParam === undefined ? {} : { nameParam }),
    };
  };

  /**
   * The factory `fn` is: a plain (not async, not generator) function whose only `return` (or expression body) is a
   * definition, its name a parameter the body never assigns (or written statically). Undefined otherwise.
   */
  const factoryOf = (fn: t.Node): Factory | undefined => {
    if (fn.type !== 'FunctionDeclaration' && fn.type !== 'FunctionExpression' && fn.type !== 'ArrowFunctionExpression') return undefined;
    if (fn.async || fn.generator) return undefined;
    const params = new Map<string, number>();
    fn.params.forEach((p, i) => {
      const id = p.type === 'AssignmentPattern' ? p.left : p;
      if (id.type === 'Identifier') params.set(id.name, i);
    });
    let returned: t.Node | undefined;
    if (fn.body.type !== 'BlockStatement') returned = fn.body;
    else {
      const returns = fn.body.body.filter((s): s is t.ReturnStatement => s.type === 'ReturnStatement');
      if (returns.length !== 1 || !returns[0]?.argument) return undefined;
      // A `return` inside a block or loop before it: more than one way out.
      if (fn.body.body.some((s) => s.type !== 'ReturnStatement' && returnsIn(s))) return undefined;
      returned = returns[0].argument;
    }
    const found = definitionOf(returned, params);
    if (!found) return undefined;
    const { nameParam, name, position: _position, ...rest } = found;
    if (nameParam !== undefined) {
      const param = [...params].find(([, i]) => i === nameParam)?.[0];
      let assigned = false;
      walk(fn.body, (n) => {
        const target = n.type === 'AssignmentExpression' ? n.left : n.type === 'UpdateExpression' ? n.argument : undefined;
        if (target && patternIdentifiers(target, []).some((id) => id.name === param)) assigned = true;
      });
      if (assigned) return undefined;
      return { definition: rest, nameParam };
    }
    return { definition: { ...rest, name } };
  };

  /** A value binding of `expr`, with what it is when it is a factory or a call of a plain identifier. */
  const valueOf = (expr: t.Node, position: Position): ValueBinding => {
    const binding: ValueBinding = { kind: 'value', references: referencesOf(expr), position };
    const bare = unwrapExpression(expr);
    if (bare.type === 'FunctionExpression' || bare.type === 'ArrowFunctionExpression') binding.function = true;
    if (bare.type === 'Identifier') binding.alias = bare.name;
    const factory = factoryOf(bare);
    if (factory) binding.factory = factory;
    if (bare.type === 'CallExpression' && bare.callee.type === 'Identifier') {
      const args: StaticString[] = [];
      for (const a of bare.arguments) {
        if (a.type === 'SpreadElement') break;
        args.push(readString(a, positionOf(a)));
      }
      binding.call = { callee: bare.callee.name, position: positionOf(bare), args };
    }
    return binding;
  };

  const bindingOfExpression = (expr: t.Node, position: Position): Extract<LocalBinding, { kind: 'definition' }> | ValueBinding => {
    const def = definitionOf(expr);
    return def ? { kind: 'definition', definition: def, position } : valueOf(expr, position);
  };

  const otherExports: string[] = [];
  let openExports = false;
  for (const stmt of program.body) {
    if (stmt.type === 'VariableDeclaration' || stmt.type === 'FunctionDeclaration' || stmt.type === 'ClassDeclaration') {
      declareLocals(stmt);
    } else if (stmt.type === 'TSExportAssignment') {
      openExports = true;
    } else if (stmt.type === 'ExportNamedDeclaration') {
      const declared = stmt.declaration;
      if (declared && 'id' in declared && declared.id?.type === 'Identifier' && !['FunctionDeclaration', 'ClassDeclaration'].includes(declared.type)) {
        otherExports.push(declared.id.name); // a TypeScript declaration: type, interface, enum, namespace, declared function
      }
      if (declared?.type === 'VariableDeclaration' && declared.declarations.some((d) => d.id.type !== 'Identifier')) openExports = true;
      if (stmt.declaration) {
        for (const name of declareLocals(stmt.declaration)) {
          const local = locals.get(name);
          const position = positionOf(stmt);
          exports.set(
            name,
            local?.kind === 'definition' ? { kind: 'definition', definition: local.definition, position } : { kind: 'local', local: name, position },
          );
        }
      }
      for (const s of stmt.specifiers) {
        const position = positionOf(s);
        if (s.type === 'ExportNamespaceSpecifier') {
          const exported = exportedName(s.exported);
          unsupported.push({ kind: 'namespace-reexport', source: (stmt.source as t.StringLiteral).value, exported, position: positionOf(stmt) }); // `export * as` always has a source
          continue;
        }
        const exported = exportedName(s.exported);
        if (stmt.source) {
          const imported = s.type === 'ExportDefaultSpecifier' ? 'default' : exportedName(s.local);
          exports.set(exported, { kind: 'reexport', source: stmt.source.value, imported, position, sourcePosition: positionOf(stmt.source) });
        } else if (s.type === 'ExportSpecifier') {
          exports.set(exported, { kind: 'local', local: exportedName(s.local), position });
        }
      }
    } else if (stmt.type === 'ExportAllDeclaration') {
      stars.push({ source: stmt.source.value, position: positionOf(stmt), sourcePosition: positionOf(stmt.source) });
    } else if (stmt.type === 'ExportDefaultDeclaration') {
      const d = stmt.declaration;
      const position = positionOf(stmt);
      if (d.type === 'Identifier') exports.set('default', { kind: 'local', local: d.name, position });
      else if (d.type === 'FunctionDeclaration') {
        const factory = factoryOf(d);
        exports.set('default', { kind: 'value', references: [], position, function: true, ...(factory ? { factory } : {}) });
      } else if (d.type === 'ClassDeclaration') exports.set('default', { kind: 'value', references: [], position });
      else {
        const binding = bindingOfExpression(d, position);
        exports.set('default', binding.kind === 'definition' ? { kind: 'definition', definition: binding.definition, position } : { ...binding, position });
      }
    }
  }

  // Exported locals resolve through `locals`; turn plain values into `value` bindings now that all are known.
  for (const [name, binding] of exports) {
    if (binding.kind !== 'local') continue;
    const local = locals.get(binding.local);
    if (local?.kind === 'definition') exports.set(name, { kind: 'definition', definition: local.definition, position: binding.position });
    else if (local?.kind === 'value') exports.set(name, { ...local, position: binding.position });
  }

  return { file, imports, exports, stars, locals, importSites: [], unsupported, otherExports, ...(openExports ? { openExports: true as const } : {}) };

  function declareLocals(decl: t.Node): string[] {
    const names: string[] = [];
    if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations) {
        if (d.id.type === 'Identifier') {
          names.push(d.id.name);
          locals.set(d.id.name, d.init ? bindingOfExpression(d.init, positionOf(d)) : { kind: 'value', references: [], position: positionOf(d) });
        }
      }
    } else if (decl.type === 'FunctionDeclaration' && decl.id) {
      names.push(decl.id.name);
      const factory = factoryOf(decl);
      locals.set(decl.id.name, { kind: 'value', references: [], position: positionOf(decl), function: true, ...(factory ? { factory } : {}) });
    } else if (decl.type === 'ClassDeclaration' && decl.id) {
      names.push(decl.id.name);
      locals.set(decl.id.name, { kind: 'value', references: [], position: positionOf(decl) });
    }
    return names;
  }
}
