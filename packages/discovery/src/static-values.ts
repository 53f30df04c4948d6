/**
 * Values read statically from the AST, without running anything: a string written as a literal, a property key.
 */
import type { Node } from '@babel/types';

/** The value of a string literal or of a template literal without expressions; undefined for anything else. */
export function staticStringOf(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  node = unwrapExpression(node);
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The name of a property key: an identifier (when not computed) or a static string; undefined otherwise. */
export function keyName(key: Node, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return key.name;
  return staticStringOf(key);
}

/** `node` without the TypeScript wrappers and parentheses around it (`x as const`, `x satisfies T`, `x!`, `<T>x`, `(x)`). */
export function unwrapExpression(node: Node): Node {
  let current = node;
  while (
    current.type === 'TSAsExpression' ||
    current.type === 'TSSatisfiesExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'TSTypeAssertion' ||
    current.type === 'ParenthesizedExpression'
  )
    current = current.expression;
  return current;
}

/**
 * The value written at `keys` in nested object literals (`['options', 'activityOptions', 'activityId']`), without
 * TypeScript wrappers; the last property written wins (a method counts as written, with itself as the value).
 * Undefined when the literals do not write the key: a value on the way that is not an object literal (a variable)
 * and spreads are not read.
 */
export function literalPropertyAt(object: Node, keys: readonly string[]): Node | undefined {
  let current: Node = object;
  for (const key of keys) {
    current = unwrapExpression(current);
    if (current.type !== 'ObjectExpression') return undefined;
    let next: Node | undefined;
    for (const p of current.properties) {
      if (p.type !== 'SpreadElement' && keyName(p.key, p.computed) === key) next = p.type === 'ObjectProperty' ? p.value : p;
    }
    if (!next) return undefined;
    current = next;
  }
  return unwrapExpression(current);
}
