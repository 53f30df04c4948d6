/**
 * Positions inside JSON text (package.json, tsconfig.json), so findings about a key point at that key. The one
 * JSON-position helper of the analysis; the text is read by `jsonc-parser` (its syntax tree carries offsets), so a
 * key is found as a property, never as a string that happens to appear in a value.
 */
import { findNodeAtLocation, parseTree, visit, type JSONPath } from 'jsonc-parser';
import type { Position } from './finding.js';

/** 1-based position of a `JSON.parse` error, from V8's "(line L column C)" or "at position N". */
export function jsonErrorPosition(text: string, message: string): Position | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  return pos ? positionAt(text, Number(pos[1])) : undefined;
}

/** 1-based line and column of a character offset. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** 1-based position of the first property named `key` (at any depth, in text order), if present. */
export function keyPosition(text: string, key: string): Position | undefined {
  let offset: number | undefined;
  visit(text, {
    onObjectProperty(property, propertyOffset) {
      if (offset === undefined && property === key) offset = propertyOffset;
    },
  });
  return offset === undefined ? undefined : positionAt(text, offset);
}

/**
 * Position of the property `key` of the top-level object `section` (e.g. `"@skein/core"` under
 * `"dependencies"`), or of the property `section` itself when `key` is omitted or absent. Falls back to 1:1.
 */
export function jsonKeyPosition(text: string, section: string, key?: string): Position {
  const root = parseTree(text);
  const propertyAt = (path: JSONPath): number | undefined => {
    const node = root && findNodeAtLocation(root, path);
    return node?.parent?.type === 'property' ? node.parent.offset : undefined;
  };
  const sectionOffset = propertyAt([section]);
  if (sectionOffset === undefined) return { line: 1, column: 1 };
  return positionAt(text, (key === undefined ? undefined : propertyAt([section, key])) ?? sectionOffset);
}
