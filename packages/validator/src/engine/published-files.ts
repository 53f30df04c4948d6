/**
 * Which files of a package a publish includes, from package.json's `"files"` field (npm semantics,
 * simplified): an entry without wildcards names a file or a whole folder; `*` matches within one path
 * segment, `**` across segments; a leading `!` excludes. No `"files"` field: everything.
 *
 * Why not the `npm-packlist` library: it takes an `@npmcli/arborist` tree and walks the package through `node:fs`
 * itself (with `ignore-walk` for `.npmignore`/`.gitignore`), while the validator reads only through the analysis
 * `FileSystem` (confined to the package, in memory in tests, recorded by the worker's validation cache) and already
 * holds the package's file list. The packaging rules ask only which workflow, steps, evaluators and declaration files
 * are published, so what npm always adds (README, LICENSE) does not change their answer. Not read: `.npmignore` and
 * `.gitignore`; a package that excludes files only through them is judged as publishing them (the rules may then
 * ask for a `.d.ts` or a built `.js` it does not ship, never miss one it does).
 */
import * as path from 'node:path';

function entryMatcher(entry: string): (rel: string) => boolean {
  const clean = entry.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!/[*?[]/.test(clean)) return (rel) => rel === clean || rel.startsWith(clean + '/');
  const source = clean
    .split('/')
    .map((seg) =>
      seg === '**'
        ? '(?:.*)'
        : seg
            .replace(/[.+^${}()|\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
    )
    .join('/')
    .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
  const re = new RegExp(`^${source}(?:/.*)?$`);
  return (rel) => re.test(rel);
}

/**
 * Filters `files` (absolute, below `root`) down to the published ones.
 * @param filesField the raw `"files"` value (ignored unless an array of strings)
 */
export function publishedFiles(root: string, files: readonly string[], filesField: unknown): string[] {
  if (!Array.isArray(filesField) || filesField.length === 0) return [...files];
  const entries = filesField.filter((e): e is string => typeof e === 'string');
  const include = entries.filter((e) => !e.startsWith('!')).map(entryMatcher);
  const exclude = entries.filter((e) => e.startsWith('!')).map((e) => entryMatcher(e.slice(1)));
  return files.filter((f) => {
    const rel = path.relative(root, f).split(path.sep).join('/');
    if (rel === 'package.json') return true;
    return include.some((m) => m(rel)) && !exclude.some((m) => m(rel));
  });
}
