/**
 * Values read statically from the AST, without running anything: a string written as a literal, a property key.
 */
import type { Node } from '@babel/types';

/** The value of a string literal or of a template literal without expressions; undefined for anything else. */
export function staticStringOf(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'StringLiteral') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The name of a property key: an identifier (when not computed) or a static string; undefined otherwise. */
export function keyName(key: Node, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return key.name;
  return staticStringOf(key);
}

/**
 * What nested object literals hold at `keys` (`['options', 'activityOptions', 'activityId']`): the value's node;
 * `absent` when the literals leave the key out, or a value on the way is not an object literal (a variable: what it
 * holds is not read); `unknown` when a spread or a computed key on the way could supply it.
 */
export function literalPropertyAt(object: Node, keys: readonly string[]): Node | 'absent' | 'unknown' {
  let current: Node = object;
  for (const key of keys) {
    if (current.type === 'TSAsExpression' || current.type === 'TSSatisfiesExpression') current = current.expression;
    if (current.type !== 'ObjectExpression') return 'absent';
    let next: Node | undefined;
    for (const p of current.properties) {
      if (p.type === 'SpreadElement') return 'unknown';
      const name = keyName(p.key, p.computed);
      if (name === undefined) return 'unknown';
      if (name === key) next = p.type === 'ObjectProperty' ? p.value : p;
    }
    if (!next) return 'absent';
    current = next;
  }
  return current;
}
