/**
 * Which files of a package a publish includes (`npm pack` / `npm publish`), as npm decides it:
 * - with a `"files"` field, each entry is a glob matched with `minimatch` (the matcher npm's own file list uses, with
 *   dot files matched), a match that is a folder brings its whole content, a `!` entry takes matches out again, and
 *   a later entry wins over an earlier one; `package.json` and the files `main`, `browser` and `bin` name are always
 *   included, and the root's `.npmignore` / `.gitignore` are not read;
 * - without it, every file, less what the root's `.npmignore` excludes (its `.gitignore` when it has no
 *   `.npmignore`), read with the `ignore` package (gitignore rules).
 * Not followed: `.npmignore` files in subfolders, and what npm adds beside (README, LICENSE: no packaging rule asks
 * about them). A package that excludes files only through a nested `.npmignore` is judged as publishing them (the
 * rules may then ask for a `.d.ts` or a built `.js` it does not ship, never miss one it does).
 *
 * Why not the `npm-packlist` library (measured by bench/analysis-libraries/published-files.mjs, load average 16 on
 * the shared 2-core machine): it takes an `@npmcli/arborist` tree and lists the package through `node:fs` itself
 * (`glob`, `ignore-walk`), while the validator reads only through the analysis `FileSystem` (confined to the package,
 * in memory in tests, recorded by the worker's validation cache) and already holds the package's file list. With
 * Arborist it installs 117 packages, 16.4 MB, none of which the validator needs otherwise, and takes a median 7.1 ms
 * per package (Arborist's `loadActual` and the list) where this module takes 0.15 ms with the file walk. Over 131
 * packages (the 120 package folders of fixtures/ and examples/, and 11 shapes of `"files"` and ignore files) both
 * publish the same JavaScript, TypeScript and declaration files but for one shape: an `.npmignore` that leaves out a
 * folder and takes one file of it back (`dist/deep`, `!dist/deep/c.js`), where npm publishes the whole folder and the
 * gitignore rules read here publish none of it (git's rule: a file of an excluded folder cannot be taken back).
 */
import * as path from 'node:path';
import ignore from 'ignore';
import { Minimatch } from 'minimatch';

/** The package.json fields that decide the published files (anything else is ignored; bad values count as absent). */
export interface PublishFields {
  files?: unknown;
  main?: unknown;
  browser?: unknown;
  bin?: unknown;
}

/** One `"files"` entry: whether it includes or excludes, and its matcher. */
interface FilesEntry {
  include: boolean;
  matcher: Minimatch;
}

function filesEntries(field: unknown[]): FilesEntry[] {
  const out: FilesEntry[] = [];
  for (const raw of field) {
    if (typeof raw !== 'string') continue;
    const include = !raw.startsWith('!');
    // As npm does: leading `!`s, `./` or `/`, and trailing slashes do not change what an entry names.
    const pattern = raw
      .replace(/^!+/, '')
      .replace(/^\.?\//, '')
      .replace(/\/+$/, '');
    out.push({ include, matcher: new Minimatch(pattern, { dot: true }) }); // an empty pattern matches no file
  }
  return out;
}

/** True when `matcher` matches `rel` or a folder that holds it. */
function covers(matcher: Minimatch, rel: string): boolean {
  let slash = -1;
  while ((slash = rel.indexOf('/', slash + 1)) !== -1) if (matcher.match(rel.slice(0, slash))) return true;
  return matcher.match(rel);
}

/** The package-relative paths npm always publishes: package.json and what `main`, `browser` and `bin` name. */
function alwaysIncluded(fields: PublishFields): Set<string> {
  const bin = fields.bin;
  // Object.values gives nothing for a number or a boolean.
  const binFiles: unknown[] = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  const named = [fields.main, fields.browser, ...binFiles];
  const out = new Set(['package.json']);
  for (const value of named) if (typeof value === 'string') out.add(path.posix.normalize(value.split(path.sep).join('/')));
  return out;
}

/**
 * Filters `files` (absolute, below `root`) down to the ones a publish includes, in their order.
 * @param fields the package's package.json (only `files`, `main`, `browser` and `bin` are read; `files` counts when it
 *   is a non-empty array; its non-string entries are skipped)
 * @param ignoreFile the text of the root's `.npmignore` (else `.gitignore`), when it has one; read only without `files`
 */
export function publishedFiles(root: string, files: readonly string[], fields: PublishFields, ignoreFile?: string): string[] {
  const relative = (f: string) => path.relative(root, f).split(path.sep).join('/');
  if (!Array.isArray(fields.files) || fields.files.length === 0) {
    if (ignoreFile === undefined) return [...files];
    const ignored = ignore().add(ignoreFile);
    return files.filter((f) => {
      const rel = relative(f);
      return rel === 'package.json' || !ignored.ignores(rel);
    });
  }
  const entries = filesEntries(fields.files);
  const always = alwaysIncluded(fields);
  return files.filter((f) => {
    const rel = relative(f);
    if (always.has(rel)) return true;
    let published = false;
    for (const entry of entries) if (covers(entry.matcher, rel)) published = entry.include;
    return published;
  });
}
