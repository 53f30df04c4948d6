/**
 * Path display shared by formatters.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** `file` relative to `base` with `/` separators, or absolute when it lies outside `base`. */
export function displayPath(base: string, file: string): string {
  const rel = path.relative(base, file);
  if (rel === '') return path.basename(file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return file.split(path.sep).join('/');
  return rel.split(path.sep).join('/');
}

/**
 * `text` (a finding's message or hint) with every absolute path under `base` written as `displayPath` writes a
 * finding's file: relative, `/`-separated. Paths outside `base` stay absolute, as the file column shows them. The
 * core's rules name files in their messages by real path (a message is rendered once, before any reporter knows its
 * cwd); this keeps a terminal's, an Actions log's or a code-scanning alert's text free of the machine's folders.
 */
export function displayText(base: string, text: string): string {
  const prefix = base.endsWith(path.sep) ? base : base + path.sep;
  if (prefix === path.sep || !text.includes(prefix)) return text;
  return text.replace(new RegExp(escapeRegExp(prefix) + '[^\\s\'"(),:]*', 'g'), (found) => displayPath(base, found));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A URI for `file`: relative to `base` (percent-encoded) when inside it, else an absolute `file://` URI. */
export function fileUri(base: string, file: string): string {
  const rel = path.relative(base, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return pathToFileURL(file).href;
  return rel.split(path.sep).map(encodeURIComponent).join('/');
}

/** "1 error", "2 errors". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
