/**
 * The visitors of one file's single traversal, merged into one table, and what the walk may skip: each visitor object
 * may declare where its functions act (`VISIT_SCOPE`: at module level only, or only when the file's text holds a
 * word), so the walk of a cleanly parsed file leaves out the visitors whose words the text lacks and, when every
 * remaining one acts at module level, does not enter functions. The rule tester and the parity test run every case
 * both ways (packages/validator/test).
 */
import type { Node } from '@babel/types';
import type { AnyVisit, RulePath, VisitorTable } from './traverse.js';

/**
 * Where a visitor function has effects, for the walker to know what it may skip (see `mergeVisitors`):
 * - `'module'`: only for nodes at module level (no function and no non-static class field above them: exactly where
 *   `isModuleTopLevel` of the validator holds), or for module declarations (`import`, `export`), which a file that
 *   parses cleanly holds only at module level outside TypeScript namespaces;
 * - a `RegExp` (without the `g` flag): only when the file's source text matches it (a word the node must contain,
 *   such as `require`; see `wordPattern`);
 * - absent: anywhere (the default).
 * The function must then do nothing at all (no report, no state change) for the nodes it skips.
 */
export type VisitScope = 'module' | RegExp;

/**
 * The key under which a visitor object declares the `VisitScope` of its functions (a symbol: never a node type).
 * Visitors made per file list it last, with a constant table: a computed key ahead of the functions makes V8 define
 * each of them one by one, a slow path (about 1 µs per visitor object while the code is cold).
 */
export const VISIT_SCOPE: unique symbol = Symbol('skein.visitScope');

/** A rule's visitors: one function per node type it wants to see, and optionally where each has effects. */
export type RuleVisitor = { [K in Node['type']]?: (path: RulePath<Extract<Node, { type: K }>>) => void } & {
  [VISIT_SCOPE]?: { readonly [K in Node['type']]?: VisitScope };
};

/** What `mergeVisitors` may use to leave visitors out and to skip subtrees: the file's text and language. */
export interface SourceFacts {
  text: string;
  typescript: boolean;
}

/**
 * Escapes that can spell a word without its letters: `\u0066etch` (identifiers and strings), `\x66`, octal
 * `\146` and a line continuation inside a string. A text with any of them matches every `VisitScope` pattern.
 */
const SPELLING_ESCAPE = /\\[uUxX0-7\r\n\u2028\u2029]/;

/** TypeScript namespaces (`namespace N {}`, `module N {}`, `declare module 'x' {}`) may hold `export` declarations anywhere. */
const NAMESPACE_WORD = /\b(?:namespace|module)\b/;

/**
 * True unless `source` (a cleanly parsed file) shows that its text cannot hold what `pattern` (a `VisitScope` pattern)
 * looks for; always true without `source`. Lets a caller skip making a visitor whose every function is scoped by
 * patterns the text lacks.
 */
export function mayMatch(source: SourceFacts | undefined, pattern: RegExp): boolean {
  if (source === undefined) return true;
  let escaped = escapedTexts.get(source);
  if (escaped === undefined) {
    escaped = SPELLING_ESCAPE.test(source.text);
    escapedTexts.set(source, escaped);
  }
  return escaped || pattern.test(source.text);
}

/** Whether each file's text holds a `SPELLING_ESCAPE`, by its facts: tested once per file, however many callers ask. */
const escapedTexts = new WeakMap<SourceFacts, boolean>();

/**
 * Merges visitors into one table: node type → every rule's function, in rule order.
 * With `source` (only for a file that parsed without any syntax error): a function whose `VisitScope` pattern the
 * text does not match is left out, and the walk stays at module level when every remaining function is scoped to
 * it. Without `source`, every function is kept and the walk visits every node.
 */
export function mergeVisitors(visitors: readonly RuleVisitor[], source?: SourceFacts): VisitorTable {
  const table = new Map<string, AnyVisit[]>();
  let moduleLevelOnly = source !== undefined && !(source.typescript && NAMESPACE_WORD.test(source.text));
  /** `mayMatch` per pattern (visitors of several rules share a pattern). */
  const matches = new Map<RegExp, boolean>();
  const matched = (pattern: RegExp): boolean => {
    let found = matches.get(pattern);
    if (found === undefined) {
      found = mayMatch(source, pattern);
      matches.set(pattern, found);
    }
    return found;
  };
  for (const v of visitors) {
    const scopes = v[VISIT_SCOPE];
    for (const type in v) {
      const fn = (v as Record<string, unknown>)[type];
      if (typeof fn !== 'function') continue;
      const scope = scopes?.[type as Node['type']];
      if (scope !== 'module') {
        if (source !== undefined && scope !== undefined && !matched(scope)) continue;
        moduleLevelOnly = false;
      }
      const list = table.get(type);
      if (list) list.push(fn as AnyVisit);
      else table.set(type, [fn as AnyVisit]);
    }
  }
  return { byType: table, moduleLevelOnly };
}

/** A `VisitScope` pattern for `require(…)` calls (and any other use of the name). */
export const REQUIRE_WORD = /\brequire\b/;

/**
 * A `VisitScope` pattern for `import(…)` expressions: the keyword followed by `(`, or by a comment before it (`/`).
 * Import phases (`import.defer(…)`) need parser plugins the analysis does not enable, so they never parse cleanly.
 */
export const IMPORT_CALL = /\bimport\s*[(/]/;

/**
 * A `VisitScope` pattern matching any of `words` as a whole word (an identifier, or the whole text of a string).
 * @throws Error for a word that is not made of ASCII letters, digits and `_` (the word boundaries would not hold)
 */
export function wordPattern(words: Iterable<string>): RegExp {
  const list = [...words];
  for (const w of list) if (!/^[A-Za-z_]\w*$/.test(w)) throw new Error(`wordPattern: "${w}" is not a plain word`);
  return new RegExp(`\\b(?:${list.join('|')})\\b`);
}
