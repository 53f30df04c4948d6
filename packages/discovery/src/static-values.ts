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
