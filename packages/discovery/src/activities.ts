/**
 * Steps and evaluators by file convention (SPEC rules 1, 6 and 9): a workflow's `steps.js`, `steps/*.js`,
 * `evaluators.js`, `evaluators/*.js`; a package's (or the project's) `shared/steps/*.js`, `shared/evaluators/*.js`.
 * Activities are the named exports `export const x = step({ name })` / `evaluator({ name })`.
 */
import { join } from 'node:path';
import { classifyFile, isCompanionFile } from './conventions.js';
import { checkActivityName, exportedDefinitions } from './definitions.js';
import type { Diagnostics } from './diagnostics.js';
import type { FileSystem } from './fs.js';
import type { ModuleStore } from './store.js';
import type { ActivityEntry, FileRole } from './types.js';

const ACTIVITY_CALLEES = new Set(['step', 'evaluator'] as const);

/** What a directory holds, by entry name, symlinks followed. Missing or unreadable directories are empty. */
async function listing(fs: FileSystem, dir: string): Promise<Map<string, 'file' | 'directory' | 'other'>> {
  const out = new Map<string, 'file' | 'directory' | 'other'>();
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch {
    return out;
  }
  await Promise.all(
    entries.map(async (e) => {
      if (e.kind !== 'symlink') {
        out.set(e.name, e.kind === 'file' || e.kind === 'directory' ? e.kind : 'other');
        return;
      }
      try {
        out.set(e.name, (await fs.stat(join(dir, e.name))).kind);
      } catch {
        out.set(e.name, 'other');
      }
    }),
  );
  return out;
}

/**
 * The `.js` files of a convention folder (`steps/`, `evaluators/`, `shared/steps/`, `shared/evaluators/`), sorted.
 * Anything else in it (a nested folder, a `.md`, a `.ts`) is a `conventions/unexpected-file` warning; `.d.ts`
 * and source maps are accepted silently.
 */
export async function conventionFolderFiles(fs: FileSystem, dir: string, diagnostics: Diagnostics): Promise<string[]> {
  const files: string[] = [];
  const entries = [...(await listing(fs, dir))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, kind] of entries) {
    const path = join(dir, name);
    if (kind === 'file' && isCompanionFile(name)) continue;
    if (kind === 'file' && classifyFile(path) !== null) {
      files.push(path);
      continue;
    }
    const what = kind === 'directory' ? 'a nested folder' : 'not a .js file';
    diagnostics.report('conventions/unexpected-file', path, undefined, `${path} is ${what} in the convention folder ${dir}; it is ignored.`, kind === 'directory' ? `Move its files up into ${dir}/ (folders are one level deep), or out of the convention folder.` : `Only .js files (and their .d.ts / .map companions) belong in ${dir}/; move it elsewhere.`);
  }
  return files;
}

/** Reads the activity definitions of one file; `role` decides `shared` and the expected kind. */
export async function activitiesOfFile(store: ModuleStore, file: string, role: FileRole, diagnostics: Diagnostics): Promise<ActivityEntry[]> {
  const info = await store.loadReporting(file, diagnostics);
  if (!info) return [];
  const shared = role === 'shared-steps' || role === 'shared-evaluators';
  const expected = role === 'steps' || role === 'shared-steps' ? 'step' : 'evaluator';
  const out: ActivityEntry[] = [];
  for (const { exportName, definition } of exportedDefinitions(info, ACTIVITY_CALLEES)) {
    if (exportName === 'default') continue; // SPEC rule 9: named exports only; the validator reports default exports.
    const name = checkActivityName(definition, file, diagnostics);
    if (name === undefined) continue;
    const kind = definition.callee === 'step' ? 'step' : 'evaluator';
    if (kind !== expected) {
      diagnostics.report('activity/kind-mismatch', file, definition.position, `${kind}() '${name}' is defined in ${role === 'steps' || role === 'shared-steps' ? 'a steps' : 'an evaluators'} file; it is registered as ${kind === 'step' ? 'a step' : 'an evaluator'}.`, `Move it to ${kind === 'step' ? 'steps.js or steps/' : 'evaluators.js or evaluators/'}.`);
    }
    out.push({ name, exportName, kind, shared, file, line: definition.position.line, column: definition.position.column });
  }
  return out;
}

/** The workflow-scoped activities next to a `workflow.js` in `dir`, in file order. */
export async function workflowActivities(fs: FileSystem, store: ModuleStore, dir: string, diagnostics: Diagnostics): Promise<ActivityEntry[]> {
  const entries = await listing(fs, dir);
  const files: string[] = [];
  for (const base of ['steps', 'evaluators']) {
    if (entries.get(`${base}.js`) === 'file') files.push(join(dir, `${base}.js`));
    if (entries.get(base) === 'directory') files.push(...(await conventionFolderFiles(fs, join(dir, base), diagnostics)));
  }
  return activitiesFrom(store, files, diagnostics);
}

/** The shared activities of a package or project rooted at `root` (`shared/steps/*.js`, `shared/evaluators/*.js`). */
export async function sharedActivities(fs: FileSystem, store: ModuleStore, root: string, diagnostics: Diagnostics): Promise<ActivityEntry[]> {
  const shared = join(root, 'shared');
  const entries = await listing(fs, shared);
  const files: string[] = [];
  for (const base of ['steps', 'evaluators']) {
    if (entries.get(base) === 'directory') files.push(...(await conventionFolderFiles(fs, join(shared, base), diagnostics)));
  }
  return activitiesFrom(store, files, diagnostics);
}

async function activitiesFrom(store: ModuleStore, files: string[], diagnostics: Diagnostics): Promise<ActivityEntry[]> {
  const perFile = await Promise.all(files.map((f) => activitiesOfFile(store, f, classifyFile(f) as FileRole, diagnostics)));
  return perFile.flat();
}
