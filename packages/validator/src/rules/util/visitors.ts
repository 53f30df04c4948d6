/**
 * Visitor scaffolding shared by file rules: the `Program` and `CallExpression` visitors that find the
 * `@skein/core` definition calls of a file, and the `Identifier` visitor that finds uses of global names.
 * Each returns a fresh visitor (with its own per-file state), so call it inside the rule's `create()`.
 */
import type { CallExpression, Identifier, MemberExpression, OptionalMemberExpression } from '@babel/types';
import { VISIT_SCOPE, wordPattern, type RulePath, type RuleVisitor } from '@skein/discovery';
import { coreBindings, definitionKind, type CoreBindings } from './ast.js';

/**
 * Visits the calls of a file to the `@skein/core` definition functions named in `kinds` (`workflow`,
 * `step`, `evaluator`), however imported (see {@link definitionKind}). Serves package rule 1
 * (`conventions/misplaced-definition`).
 * @param kinds the definition functions whose calls to visit.
 * @param onCall called once per such call, with the call's path and which of `kinds` it invokes.
 * @returns the `Program` visitor (collects the file's `@skein/core` bindings; a file without any is
 *   skipped) and the `CallExpression` visitor that calls `onCall`.
 */
export function visitDefinitionCalls(kinds: readonly string[], onCall: (path: RulePath<CallExpression>, kind: string) => void): RuleVisitor {
  let bindings: CoreBindings = { named: new Map(), namespaces: new Set() };
  return {
    Program(path) {
      bindings = coreBindings(path.node);
    },
    CallExpression(path) {
      if (bindings.named.size === 0 && bindings.namespaces.size === 0) return;
      const kind = definitionKind(path.node, bindings, path);
      if (kind === null || !kinds.includes(kind)) return;
      onCall(path, kind);
    },
  };
}

/** A use of a global: the identifier (`process`) or the `globalThis` member expression (`globalThis.process`). */
export type GlobalReference = RulePath<Identifier> | RulePath<MemberExpression> | RulePath<OptionalMemberExpression>;

/** The global a `globalThis.x` / `globalThis['x']` / `globalThis?.x` expression reads, or undefined. */
function globalThisMember(path: RulePath<MemberExpression> | RulePath<OptionalMemberExpression>): string | undefined {
  const { object, property, computed } = path.node;
  if (object.type !== 'Identifier' || object.name !== 'globalThis' || path.scope.hasBinding('globalThis', { noGlobals: true })) return undefined;
  if (!computed && property.type === 'Identifier') return property.name;
  return computed && property.type === 'StringLiteral' ? property.value : undefined;
}

/** The `VISIT_SCOPE` table of each name set (rules pass the same set for every file). */
const nameScopes = new WeakMap<ReadonlySet<string>, RuleVisitor[typeof VISIT_SCOPE]>();

/** The pattern of each name set (one object per set, so a rule's `words` and its visitors' scope are the same pattern). */
const namePatterns = new WeakMap<ReadonlySet<string>, RegExp>();

/**
 * The `VisitScope` pattern of the uses {@link visitGlobalReferences} finds of `names` (one of them spelled as an
 * identifier or as the string of `globalThis['x']`): the `words` of a rule built on it. The same object for the same set.
 */
export function globalNamesPattern(names: ReadonlySet<string>): RegExp {
  let pattern = namePatterns.get(names);
  if (!pattern) {
    pattern = wordPattern(names);
    namePatterns.set(names, pattern);
  }
  return pattern;
}

/**
 * Visits the uses of the global variables `names` (package rule 12, `workflow/no-node-globals` and
 * `workflow/no-nondeterministic-apis`): identifiers read as values that no enclosing scope declares, and the same
 * globals read through `globalThis` (`globalThis.process.env`, `globalThis['fetch']`), other than the operand of
 * `typeof` (a feature test).
 * @param names the global names to look for.
 * @param onReference called with the reference's path (the identifier, or the whole `globalThis.x` expression,
 *   standing where the identifier would) and the global's name, for each such use.
 * @returns the `Identifier`, `MemberExpression` and `OptionalMemberExpression` visitors.
 */
export function visitGlobalReferences(names: ReadonlySet<string>, onReference: (path: GlobalReference, name: string) => void): RuleVisitor {
  let scope = nameScopes.get(names);
  if (!scope) {
    // Every use spells a name of `names` (an identifier, or the string of `globalThis['x']`): files without one skip it.
    const words = globalNamesPattern(names);
    scope = { Identifier: words, MemberExpression: words, OptionalMemberExpression: words };
    nameScopes.set(names, scope);
  }
  const isFeatureTest = (path: GlobalReference) => path.parent.type === 'UnaryExpression' && path.parent.operator === 'typeof';
  const member = (path: RulePath<MemberExpression> | RulePath<OptionalMemberExpression>) => {
    const name = globalThisMember(path);
    if (name === undefined || !names.has(name) || isFeatureTest(path)) return;
    onReference(path, name);
  };
  return {
    Identifier(path) {
      const name = path.node.name;
      if (!names.has(name) || !path.isReferencedIdentifier()) return;
      if (path.scope.hasBinding(name, { noGlobals: true })) return;
      if (isFeatureTest(path)) return;
      onReference(path, name);
    },
    MemberExpression: member,
    OptionalMemberExpression: member,
    [VISIT_SCOPE]: scope,
  };
}
