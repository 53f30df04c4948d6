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
