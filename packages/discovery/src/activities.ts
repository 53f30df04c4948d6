/**
 * Steps and evaluators by file convention (package rules 1, 6 and 9): a workflow's `steps.js`, `steps/*.js`,
 * `evaluators.js`, `evaluators/*.js`; a package's (or the project's) `shared/steps/*.js`, `shared/evaluators/*.js`.
 * Activities are the named exports `export const x = step({ name })` / `evaluator({ name })`.
 */
import { dirname } from 'node:path';
import {
  classifyFile,
  isCompanionFile,
  isSkippedDirName,
  isTestFile,
  MAX_NESTED_DEPTH,
  noteNestedActivityFolder,
  SOURCE_EXTENSIONS,
  sourceStem,
} from './conventions.js';
import { checkActivityName, exportedDefinitions, kindOf } from './definitions.js';
import { cmp, type Diagnostics } from './diagnostics.js';
import { joinName, type FileSystem } from './fs.js';
import type { ModuleStore } from './store.js';
import type { ActivityEntry, FileRole } from './types.js';

const ACTIVITY_CALLEES = new Set(['step', 'evaluator'] as const);

/**
 * What a directory holds, by entry name, symlinks followed. Missing or unreadable directories are empty. Folders here
 * are normalized (real paths and their folders), so paths are made with `joinName`, not `path.join`.
 */
function listing(fs: FileSystem, dir: string): Map<string, 'file' | 'directory' | 'other'> {
  const out = new Map<string, 'file' | 'directory' | 'other'>();
  let entries;
  try {
    entries = fs.readdir(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.kind !== 'symlink') {
      out.set(e.name, e.kind === 'file' || e.kind === 'directory' ? e.kind : 'other');
      continue;
    }
    try {
      out.set(e.name, fs.stat(joinName(dir, e.name)).kind);
    } catch {
      out.set(e.name, 'other');
    }
  }
  return out;
}

/**
 * The sort key of a name in a convention folder: its stem, then its `SOURCE_EXTENSIONS` preference (so `x.ts` comes
 * before `x.js`), then the name itself. `\0` (never in a file name) keeps a stem that is a prefix of another first.
 */
function preferenceKey(name: string): string {
  const rank = SOURCE_EXTENSIONS.findIndex((e) => name.endsWith(e));
  return `${sourceStem(name) ?? name}\0${rank < 0 ? SOURCE_EXTENSIONS.length : rank}\0${name}`;
}

/**
 * The source files (`SOURCE_EXTENSIONS`) of a convention folder (`steps/`, `evaluators/`, `shared/steps/`,
 * `shared/evaluators/`), sorted, a `.ts` beside its compiled `.js` listed once. Nested folders are walked too (their
 * files after the folder's own, folder by folder in name order; dot-folders, `node_modules` and `__tests__`
 * skipped), as the system we re-implement loads every file below such a folder (a workflow's own folder was noted
 * by discovery first: {@link noteNestedActivityFolders}). Anything else (a `.md`, a `.json`) is a
 * `conventions/unexpected-file` warning; `.d.ts` files, source maps and test files are accepted silently.
 */
export function conventionFolderFiles(fs: FileSystem, dir: string, diagnostics: Diagnostics, depth = 0): string[] {
  const files: string[] = [];
  const nested: string[] = [];
  const stems = new Set<string>();
  const entries = [...listing(fs, dir)].sort(([a], [b]) => cmp(preferenceKey(a), preferenceKey(b)));
  for (const [name, kind] of entries) {
    const path = joinName(dir, name);
    if (kind === 'directory') {
      // Bounded, as a link loop could otherwise make it endless.
      if (!isSkippedDirName(name) && depth < MAX_NESTED_DEPTH) nested.push(path);
      continue;
    }
    if (kind === 'file' && (isCompanionFile(name) || isTestFile(path))) continue;
    if (kind === 'file' && classifyFile(path) !== null) {
      const stem = sourceStem(name) as string;
      if (!stems.has(stem)) files.push(path); // `x.ts` beside its compiled `x.js`: judged once, from the source
      stems.add(stem);
      continue;
    }
    // Named in the message by the convention folder's last two segments (`shared/steps`, `orders/steps`): the finding's
    // own location is the full path.
    const shown = dir.split(/[\\/]/).slice(-2).join('/');
    diagnostics.report('conventions/unexpected-file', 'file', path, undefined, { path: `${shown}/${name}`, dir: shown });
  }
  for (const sub of nested.sort(cmp)) files.push(...conventionFolderFiles(fs, sub, diagnostics, depth + 1));
  return files;
}

/**
 * Notes each of the `steps/` and `evaluators/` folders of the workflow in `workflowDir` that holds a folder (dot-folders,
 * `node_modules` and `__tests__` aside) with `noteNestedActivityFolder`, so that the files below it are steps or
 * evaluators files for `classifyFile`. Discovery calls it for every workflow file it finds, before it reads any module.
 */
export function noteNestedActivityFolders(fs: FileSystem, workflowDir: string): void {
  const entries = listing(fs, workflowDir);
  for (const base of ['steps', 'evaluators']) {
    if (entries.get(base) !== 'directory') continue;
    const dir = joinName(workflowDir, base);
    for (const [name, kind] of listing(fs, dir)) {
      if (kind === 'directory' && !isSkippedDirName(name)) {
        noteNestedActivityFolder(dir);
        break;
      }
    }
  }
}

/** Reads the activity definitions of one file; `role` decides `shared` and the expected kind. */
export function activitiesOfFile(store: ModuleStore, file: string, role: FileRole, diagnostics: Diagnostics): ActivityEntry[] {
  const info = store.loadReporting(file, diagnostics);
  if (!info) return [];
  const shared = role === 'shared-steps' || role === 'shared-evaluators';
  const expected = role === 'steps' || role === 'shared-steps' ? 'step' : 'evaluator';
  const out: ActivityEntry[] = [];
  for (const { exportName, definition } of exportedDefinitions(info, ACTIVITY_CALLEES)) {
    if (exportName === 'default') continue; // package rule 9: named exports only; the validator reports default exports.
    const name = checkActivityName(definition, file, diagnostics);
    if (name === undefined) continue;
    const kind = kindOf(definition, file) === 'step' ? 'step' : 'evaluator';
    if (kind !== expected) {
      diagnostics.report('activity/kind-mismatch', 'mismatch', file, definition.position, {
        kind,
        name,
        fileKind: role === 'steps' || role === 'shared-steps' ? 'a steps' : 'an evaluators',
        registeredAs: kind === 'step' ? 'a step' : 'an evaluator',
        target: kind === 'step' ? 'steps.js or steps/' : 'evaluators.js or evaluators/',
      });
    }
    out.push({ name, exportName, kind, shared, file, line: definition.position.line, column: definition.position.column });
  }
  return out;
}

/** The workflow-scoped activities next to a `workflow.js` in `dir`, in file order. */
export function workflowActivities(fs: FileSystem, store: ModuleStore, dir: string, diagnostics: Diagnostics): ActivityEntry[] {
  const entries = listing(fs, dir);
  const files: string[] = [];
  for (const base of ['steps', 'evaluators']) {
    const ext = SOURCE_EXTENSIONS.find((e) => entries.get(`${base}${e}`) === 'file'); // steps.ts beside steps.js: once
    if (ext) files.push(joinName(dir, `${base}${ext}`));
    if (entries.get(base) === 'directory') files.push(...conventionFolderFiles(fs, joinName(dir, base), diagnostics));
  }
  return activitiesFrom(store, files, diagnostics);
}

/**
 * The shared activities of a package or project from its shared activity folders (`shared/steps/`,
 * `shared/evaluators/` at any depth, found by the caller's walk), each folder's files judged once.
 */
export function sharedActivities(fs: FileSystem, store: ModuleStore, sharedFolders: readonly string[], diagnostics: Diagnostics): ActivityEntry[] {
  const order = (dir: string) => `${dirname(dir)}\0${dir.endsWith('steps') ? 0 : 1}`;
  const folders = [...new Set(sharedFolders)].sort((a, b) => cmp(order(a), order(b)));
  return activitiesFrom(
    store,
    folders.flatMap((dir) => conventionFolderFiles(fs, dir, diagnostics)),
    diagnostics,
  );
}

function activitiesFrom(store: ModuleStore, files: string[], diagnostics: Diagnostics): ActivityEntry[] {
  const perFile = files.map((f) => activitiesOfFile(store, f, classifyFile(f) as FileRole, diagnostics));
  return perFile.flat();
}
