/**
 * What the analysis knows of one package root, worked out once per session and shared by discovery and the
 * validator: its package.json (parsed, with the text for positions), whether it is judged as a published workflow
 * package, its entry, its compiled layout and its file list. Discovery takes its convention files from the list;
 * the validator adds only what is its own (the files a publish would include) and runs its rules on these facts.
 */
import { join } from 'node:path';
import { classifyFile, isSkippedDirName } from './conventions.js';
import type { Diagnostics } from './diagnostics.js';
import { resolveEntry, type EntryResolution } from './entry.js';
import type { FileSystem } from './fs.js';
import { layoutOf, type Layout } from './layout.js';
import { exposeState } from './packages.js';
import { walkFiles } from './walk.js';

/** Upper bound on the files one package lists beside its convention files, so a pathological tree cannot exhaust memory. */
export const MAX_PACKAGE_FILES = 200_000;

/** The facts of one package root (see the module's header). */
export interface PackageFacts {
  /** Real path of the package root. */
  root: string;
  /** Absolute path of its package.json. */
  manifest: string;
  /** The parsed package.json; `{}` when it is absent or malformed (discovery reports those). */
  json: Record<string, unknown>;
  /** The package.json text, for positions; `''` when it could not be read. */
  text: string;
  /** Judged as a published workflow package (package rule 4's expose flag, or package mode): its entry decides. */
  published: boolean;
  /** Its resolved entry when published, else undefined. */
  entry: EntryResolution | undefined;
  /** The judged side of a compiled layout (decided with the entry when published). */
  layout: Layout;
  /**
   * Every file of the package: real paths, sorted; `node_modules`, dot-folders, `__tests__` and the unjudged side of
   * the layout left out; at most {@link MAX_PACKAGE_FILES} besides convention files.
   */
  files: string[];
  /** Symbolic links of the package that lead out of it (never followed): the link and its target. */
  outside: Array<{ file: string; target: string }>;
}

/**
 * Works out the facts of the package at `root` (a real path) from its package.json as read (`null` when it could
 * not be read or parsed). `published` true or false forces the judgement; null decides it from the expose flag.
 * `maxFiles` caps the files listed besides convention files (default {@link MAX_PACKAGE_FILES}).
 * Problems of the walk (unreadable folders, symlink loops) go to `diagnostics`; never throws.
 */
export function describePackage(
  fs: FileSystem,
  diagnostics: Diagnostics,
  root: string,
  read: { json: Record<string, unknown>; text: string } | null,
  published: boolean | null,
  maxFiles = MAX_PACKAGE_FILES,
): PackageFacts {
  const json = read?.json ?? {};
  const isPublished = published ?? exposeState(json) === 'exposed';
  const entry = isPublished ? resolveEntry(fs, root, json) : undefined;
  const layout = layoutOf(fs, root, entry?.ok ? entry.file : undefined);
  const outside: PackageFacts['outside'] = [];
  let count = 0;
  const files = walkFiles(
    fs,
    root,
    {
      skipDir: (name, real) => isSkippedDirName(name) || layout.skipped.has(real),
      wantFile: (_name, path) => ++count <= maxFiles || classifyFile(path) !== null,
      onOutside: (file, target) => void outside.push({ file, target }),
    },
    diagnostics,
  );
  return { root, manifest: join(root, 'package.json'), json, text: read?.text ?? '', published: isPublished, entry, layout, files, outside };
}
