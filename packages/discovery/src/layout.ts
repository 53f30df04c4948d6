/**
 * Which directories of a project or package hold the code to judge. A compiled project is
 * judged once: when `tsconfig.json` maps `compilerOptions.rootDir` to `compilerOptions.outDir` and both exist,
 * definitions come from one side only: the sources for a project (and for a package whose entry lies among the
 * sources), the compiled output for a package whose entry lies in `outDir`. A project that ships only its
 * compiled output (the sources are absent) is judged from `outDir`. Without a tsconfig, `dist/` is build output and
 * is skipped when `src/` exists or any workflow file lies outside `dist/`; otherwise `dist/` is what is judged. `tsconfig.json` is read with its `extends`
 * chain followed (tsconfig.ts).
 */
import { join } from 'node:path';
import { classifyFile, isSkippedDirName } from './conventions.js';
import { Diagnostics } from './diagnostics.js';
import { isInside, statOrUndefined, type FileSystem } from './fs.js';
import { compilerDirs } from './tsconfig.js';
import { walkFiles } from './walk.js';

/** The side of a compiled project that is judged, and the folders skipped to get it. */
export interface Layout {
  /** Real paths of folders never walked for convention files. */
  skipped: Set<string>;
  /** `sources`, `compiled`, or `plain` (no compiled output beside sources). */
  judged: 'sources' | 'compiled' | 'plain';
}

function isDir(fs: FileSystem, path: string): boolean {
  return statOrUndefined(fs, path)?.kind === 'directory';
}

function realOf(fs: FileSystem, path: string): string {
  try {
    return fs.realpath(path);
  } catch {
    return path;
  }
}

/** True when a workflow file exists under `root` outside `compiled` (so the root itself holds sources). */
function hasWorkflowFileOutside(fs: FileSystem, root: string, compiled: string): boolean {
  const skip = realOf(fs, compiled);
  const sink = new Diagnostics();
  return (
    walkFiles(
      fs,
      root,
      { skipDir: (name, real) => isSkippedDirName(name) || real === skip, wantFile: (_name, path) => classifyFile(path) === 'workflow' },
      sink,
    ).length > 0
  );
}

/**
 * Decides the layout of `root` (a real path).
 * @param entryFile a package's resolved entry (decides the side for packages); absent for a project
 */
export function layoutOf(fs: FileSystem, root: string, entryFile?: string): Layout {
  const { rootDir, outDir } = compilerDirs(fs, root);
  const compiled = outDir ?? join(root, 'dist');
  const sources = rootDir ?? (outDir || !isDir(fs, join(root, 'src')) ? root : join(root, 'src'));
  if (!isDir(fs, compiled) || compiled === root) return { skipped: new Set(), judged: 'plain' };
  const sourcesExist = sources === root ? hasWorkflowFileOutside(fs, root, compiled) : isDir(fs, sources);
  if (!sourcesExist) return { skipped: new Set(), judged: 'compiled' };
  const entryCompiled = entryFile !== undefined && isInside(realOf(fs, compiled), entryFile);
  if (entryCompiled && sources !== root) return { skipped: new Set([realOf(fs, sources)]), judged: 'compiled' };
  if (entryCompiled) return { skipped: new Set(), judged: 'compiled' };
  return { skipped: new Set([realOf(fs, compiled)]), judged: 'sources' };
}
