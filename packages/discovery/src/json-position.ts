/**
 * Positions inside JSON text (package.json, tsconfig.json), so findings about a key point at that key. The one
 * JSON-position helper of the analysis.
 */
import type { Position } from './diagnostics.js';

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

/** 1-based position of the first `"key"` in a package.json text, if present. */
export function keyPosition(text: string, key: string): Position | undefined {
  const offset = text.indexOf(`"${key}"`);
  return offset >= 0 ? positionAt(text, offset) : undefined;
}

/**
 * Position of the key `"key"` inside the object that follows `"section"` (e.g. `"@skein/core"` under
 * `"dependencies"`), or of `"section"` itself when `key` is omitted. Falls back to 1:1.
 */
export function jsonKeyPosition(text: string, section: string, key?: string): Position {
  const sectionIndex = text.search(new RegExp(`"${escapeRegExp(section)}"\\s*:`));
  if (sectionIndex < 0) return { line: 1, column: 1 };
  if (key === undefined) return positionAt(text, sectionIndex);
  const open = text.indexOf('{', sectionIndex);
  const close = open < 0 ? -1 : text.indexOf('}', open);
  const keyIndex = open < 0 ? -1 : text.slice(open, close < 0 ? undefined : close).search(new RegExp(`"${escapeRegExp(key)}"\\s*:`));
  return keyIndex < 0 ? positionAt(text, sectionIndex) : positionAt(text, open + keyIndex);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
