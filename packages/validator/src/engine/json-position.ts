/**
 * Positions inside package.json text, so package-level findings point at the offending key.
 */

/** 1-based line and column of character offset `index` in `text`. */
export function positionAt(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/**
 * Position of the key `"key"` inside the object that follows `"section"` (e.g. `"@skein/core"` under
 * `"dependencies"`), or of `"section"` itself when `key` is omitted. Falls back to 1:1.
 */
export function jsonKeyPosition(text: string, section: string, key?: string): { line: number; column: number } {
  const sectionIndex = text.search(new RegExp(`"${escape(section)}"\\s*:`));
  if (sectionIndex < 0) return { line: 1, column: 1 };
  if (key === undefined) return positionAt(text, sectionIndex);
  const open = text.indexOf('{', sectionIndex);
  const close = open < 0 ? -1 : text.indexOf('}', open);
  const keyIndex = open < 0 ? -1 : text.slice(open, close < 0 ? undefined : close).search(new RegExp(`"${escape(key)}"\\s*:`));
  return keyIndex < 0 ? positionAt(text, sectionIndex) : positionAt(text, open + keyIndex);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
