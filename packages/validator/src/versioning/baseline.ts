/**
 * Reading the baseline of a versioning check: a build directory made by `skein build` (its recorded command shapes)
 * or a project directory (its shapes derived now).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { BaselineError } from '../errors.js';
import { deriveCommandShapes, SHAPES_FILE, SHAPES_FORMAT, type ShapeSet } from '@skein/discovery';

/** The record file of a build (the worker's `BUILD_RECORD`; a build holds it, a project never does). */
export const BUILD_RECORD_FILE = 'skein-build.json';

/** A baseline that cannot be used: the CLI prints its message as one line and exits 2. */
export { BaselineError };

/** The package.json `name` of the project at `dir`, or null (unreadable, or no string `name`): what a baseline's project must equal. */
export function projectNameOf(dir: string): string | null {
  try {
    const name = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

/** A loaded baseline: its shapes, or why the check is skipped (a build made before shapes were recorded). */
export type Baseline = { shapes: ShapeSet; skipped?: undefined } | { shapes?: undefined; skipped: string };

/**
 * Loads the baseline at `dir` for the project named `projectName` (its package.json `name`, or null).
 * @returns the shapes, or `skipped` with a one-line warning for a build made before shapes were recorded
 * @throws BaselineError when `dir` is neither a build nor a project, when the build's shapes cannot be read, or when
 *   the baseline is of another project (another package.json `name`)
 */
export async function loadBaseline(dir: string, projectName: string | null): Promise<Baseline> {
  const abs = path.resolve(dir);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new BaselineError(`--baseline ${dir}: no such directory`);
  }
  if (!isDir) throw new BaselineError(`--baseline ${dir}: not a directory (expected a build made by \`skein build\` or a project)`);
  let shapes: ShapeSet;
  if (existsSync(path.join(abs, BUILD_RECORD_FILE))) {
    const file = path.join(abs, SHAPES_FILE);
    if (!existsSync(file)) return { skipped: `--baseline ${dir} is a build made before command shapes were recorded; the versioning check is skipped` };
    try {
      shapes = JSON.parse(readFileSync(file, 'utf8')) as ShapeSet;
    } catch (error) {
      throw new BaselineError(`--baseline ${dir}: ${SHAPES_FILE} cannot be read (${(error as Error).message.split('\n')[0]})`);
    }
    if (shapes?.format !== SHAPES_FORMAT || typeof shapes.workflows !== 'object' || shapes.workflows === null) {
      throw new BaselineError(`--baseline ${dir}: ${SHAPES_FILE} has format ${JSON.stringify(shapes?.format)}, this validator reads format ${SHAPES_FORMAT}`);
    }
  } else if (existsSync(path.join(abs, 'package.json'))) {
    shapes = await deriveCommandShapes(abs);
  } else {
    throw new BaselineError(`--baseline ${dir}: not a build (no ${BUILD_RECORD_FILE}) and not a project (no package.json)`);
  }
  if ((shapes.project ?? null) !== projectName) {
    throw new BaselineError(`--baseline ${dir}: a build of project ${JSON.stringify(shapes.project ?? null)}, not of ${JSON.stringify(projectName)}`);
  }
  return { shapes };
}
