import path from 'node:path';
import { isDeclarationFile, isTestFile } from '@skein/discovery';
import { watch, type FSWatcher } from 'chokidar';

/** Folder names never watched below a watched root: dependencies (an exposed package is a root of its own), dev state, VCS. */
const SKIPPED = new Set(['node_modules', '.skein', '.git']);
/** Editor and OS scratch files whose changes are not edits. */
const SCRATCH = /(?:~|\.swp|\.swx|\.tmp|\.DS_Store|#)$/;
/** Files no worker reads: documentation and source maps (tsc writes one beside every compiled file). */
const NOT_SERVED = /\.(?:md|markdown|map)$/i;

/**
 * Whether a change of `file` can change what a worker serves: not an editor's scratch file, a test file
 * (`*.test.*`, `*.spec.*`, `__tests__/`: never loaded by a worker, nor in its build ID), a type declaration,
 * documentation or a source map.
 */
export function isServedInput(file: string): boolean {
  return !SCRATCH.test(file) && !NOT_SERVED.test(file) && !isTestFile(file) && !isDeclarationFile(file);
}

/** A project watcher: see `watchProject()`. */
export interface ProjectWatcher {
  /** Resolves once the first scan of the roots is done: an edit before it may go unseen. */
  ready: Promise<void>;
  /** Replaces the watched roots (after a reload found new or removed exposed packages). */
  setRoots(roots: string[]): void;
  close(): Promise<void>;
}

/**
 * Watches a project for the edits a reload needs (chokidar): every file under each root (the project and each
 * exposed package, even inside `node_modules`) except nested `node_modules`, `.skein` and `.git` folders and what
 * `isServedInput` leaves out (scratch, test, declaration, documentation and source-map files): workflow, step,
 * evaluator, shared and hook files, package.json, tsconfig, compiled output, data files code may read. Changes are batched: `onChange` gets the changed paths once no event came for `debounceMs`.
 */
export function watchProject(roots: string[], onChange: (files: string[]) => void, options: { debounceMs?: number } = {}): ProjectWatcher {
  let current = [...new Set(roots)];
  const ignored = (file: string) => {
    if (SCRATCH.test(file)) return true;
    // Ignored only when no root sees it as its own (a package root inside node_modules is watched).
    const owners = current.filter((r) => file === r || file.startsWith(r + path.sep));
    if (owners.length === 0) return false;
    return owners.every((r) =>
      path
        .relative(r, file)
        .split(path.sep)
        .some((part) => SKIPPED.has(part)),
    );
  };
  const watcher: FSWatcher = watch(current, { ignored, ignoreInitial: true, atomic: true });
  /** Per path: the first and last event of the batch (a file added then removed, like an editor's temp file, is no change). */
  let pending = new Map<string, { first: string; last: string }>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    const files = [...pending].filter(([, e]) => !(e.first === 'add' && e.last === 'unlink')).map(([f]) => f);
    pending = new Map();
    if (files.length) onChange(files);
  };
  watcher.on('all', (event, file) => {
    if (!isServedInput(file)) return;
    const key = path.resolve(file);
    pending.set(key, { first: pending.get(key)?.first ?? event, last: event });
    clearTimeout(timer);
    timer = setTimeout(flush, options.debounceMs ?? 150);
  });
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    setRoots(roots) {
      const next = [...new Set(roots)];
      const removed = current.filter((r) => !next.includes(r));
      const added = next.filter((r) => !current.includes(r));
      current = next;
      if (removed.length) watcher.unwatch(removed);
      if (added.length) watcher.add(added);
    },
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
