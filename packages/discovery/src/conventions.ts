/**
 * File conventions (SPEC rule 1), decided in exactly one place (STYLE: "file conventions are decided once, in
 * discovery, and everything else asks discovery").
 */
import type { FileRole } from './types.js';

/** File names that may sit in a `steps/` or `evaluators/` folder without being activity files (rule 5 `.d.ts`). */
const COMPANION_SUFFIXES = ['.d.ts', '.d.ts.map', '.js.map'];

/**
 * The role a path plays by convention, decided from the path alone (pure; never touches the disk):
 * - `…/workflow.js` → `workflow`
 * - `…/shared/steps/<x>.js` → `shared-steps`, `…/shared/evaluators/<x>.js` → `shared-evaluators`
 * - `…/steps/<x>.js` → `steps`, `…/evaluators/<x>.js` → `evaluators`
 * - `…/steps.js` → `steps`, `…/evaluators.js` → `evaluators`
 * - anything else (including `steps/sub/<x>.js`, `.d.ts`, `.mjs`, `.ts`) → null.
 * Accepts `/` or `\` separators.
 */
export function classifyFile(file: string): FileRole | null {
  const parts = file.split(/[\\/]/);
  const base = parts[parts.length - 1] ?? '';
  if (!base.endsWith('.js') || base.endsWith('.d.js') || base === '.js') return null;
  if (base === 'workflow.js') return 'workflow';
  const parent = parts[parts.length - 2];
  const shared = parts[parts.length - 3] === 'shared';
  if (parent === 'steps') return shared ? 'shared-steps' : 'steps';
  if (parent === 'evaluators') return shared ? 'shared-evaluators' : 'evaluators';
  if (base === 'steps.js') return 'steps';
  if (base === 'evaluators.js') return 'evaluators';
  return null;
}

/** True for files that may accompany activity files in a convention folder without a warning (`.d.ts`, source maps). */
export function isCompanionFile(name: string): boolean {
  return COMPANION_SUFFIXES.some((s) => name.endsWith(s));
}

/** Folder names never walked when looking for workflow files. */
export function isSkippedDirName(name: string, local: boolean): boolean {
  return name === 'node_modules' || name.startsWith('.') || (local && name === 'dist');
}
