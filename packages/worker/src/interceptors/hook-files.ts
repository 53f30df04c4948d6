import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_JSON_KEY } from '@skein/core';
import { nodeFileSystem, readPackageJson } from '@skein/discovery';
import { WorkerStartupError } from '../check/errors.js';
import { describeLoadFailure } from '../host/typescript/load-error.js';

/**
 * Imports the root project's hook files (`"skein": { "hookFiles": ["./hooks.js"] }` in its package.json;
 * `.ts` hook files run from source too), which register hooks with `@skein/core`'s `onWorkflowStart`, `on`, ... Paths are
 * relative to the project root and must stay inside it.
 * @returns the absolute paths imported.
 * @throws WorkerStartupError for a malformed `hookFiles`, a path outside the project, or a file that fails to load.
 */
export async function loadHookFiles(projectRoot: string): Promise<string[]> {
  // The analysis core's package.json reader; a package.json it cannot read or parse holds no hook files (the
  // project check at startup reports it).
  const read = readPackageJson(nodeFileSystem, projectRoot);
  if (!read.ok) return [];
  const pkgFile = read.file;
  const hookFiles = (read.json[PACKAGE_JSON_KEY] as { hookFiles?: unknown } | null | undefined)?.hookFiles;
  if (hookFiles === undefined) return [];
  if (!Array.isArray(hookFiles) || !hookFiles.every((f) => typeof f === 'string')) {
    throw new WorkerStartupError(`${pkgFile}: "skein.hookFiles" must be an array of relative paths`);
  }
  const loaded: string[] = [];
  for (const rel of hookFiles) {
    const file = path.resolve(projectRoot, rel);
    if (path.relative(projectRoot, file).startsWith('..')) {
      throw new WorkerStartupError(`${pkgFile}: hook file "${rel}" is outside the project`);
    }
    try {
      await import(pathToFileURL(file).href);
    } catch (err) {
      throw new WorkerStartupError(`Cannot load hook file ${file}: ${describeLoadFailure(err, file)}`, (err as Error).stack);
    }
    loaded.push(file);
  }
  return loaded;
}
