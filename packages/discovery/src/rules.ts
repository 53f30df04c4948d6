/**
 * Every rule id discovery emits, as data: severity, the SPEC rule it serves, and a one-line summary.
 * Each id has a page at `docs/rules/<rule-id>.md` (the id's `/` is a folder: `docs/rules/reexport/commonjs.md`).
 */
import type { Severity } from './types.js';

/** Static facts about one rule. */
export interface RuleMeta {
  severity: Severity;
  /** The SPEC "Rules for external workflow packages" number it enforces, when there is one. */
  specRule?: number;
  /** What it catches, one line. */
  summary: string;
}

export const RULES = {
  'package/no-expose-flag': { severity: 'warning', specRule: 4, summary: 'Workflow code imports a workflow from a package that does not set "skein": { "workflows": { "expose": true } }.' },
  'package/invalid-expose-flag': { severity: 'warning', specRule: 4, summary: 'A package sets skein.workflows.expose to something other than the boolean true.' },
  'package/invalid-json': { severity: 'warning', specRule: 4, summary: 'A package.json cannot be read or parsed; the package is skipped.' },
  'package/missing-manifest': { severity: 'warning', specRule: 4, summary: 'A directory in node_modules (or the project root) has no package.json.' },
  'entry/not-found': { severity: 'error', specRule: 2, summary: 'An exposed package has no entry point discovery can resolve (exports, main, index.js).' },
  'reexport/commonjs': { severity: 'error', specRule: 3, summary: 'A package entry or barrel uses CommonJS (module.exports, exports.x, require()).' },
  'reexport/dynamic': { severity: 'error', specRule: 3, summary: 'A package entry or barrel uses a dynamic import().' },
  'reexport/computed-path': { severity: 'error', specRule: 3, summary: 'An import() or require() path is computed at runtime.' },
  'reexport/non-relative': { severity: 'warning', specRule: 2, summary: 'A package entry or barrel re-exports workflows from a non-relative path.' },
  'reexport/namespace': { severity: 'error', specRule: 3, summary: 'A package entry or barrel exports a namespace object holding workflows (export * as ns from, or import * as ns then export { ns }).' },
  'reexport/runtime-assembly': { severity: 'error', specRule: 3, summary: 'Workflows are exported inside a value assembled at runtime (object, array, call).' },
  'reexport/unresolved': { severity: 'error', specRule: 2, summary: 'A relative re-export points at a file that does not exist.' },
  'imports/namespace': { severity: 'error', specRule: 3, summary: 'Workflow code imports a workflow package or workflow file as a namespace (import * as x).' },
  'imports/dynamic': { severity: 'error', specRule: 3, summary: 'Workflow code loads a workflow package or workflow file with a dynamic import().' },
  'conventions/unexpected-file': { severity: 'warning', specRule: 1, summary: 'A steps/ or evaluators/ folder holds something other than .js files.' },
  'conventions/unreachable-workflow': { severity: 'warning', specRule: 2, summary: 'A workflow.js of an exposed package is not reachable from its entry point; it is not registered.' },
  'conventions/misplaced-workflow': { severity: 'warning', specRule: 1, summary: 'A package exports a workflow() defined outside a workflow.js file; it is not registered.' },
  'workflow/no-definition': { severity: 'error', specRule: 1, summary: 'A workflow.js file exports no workflow({...}) definition.' },
  'workflow/multiple-definitions': { severity: 'error', specRule: 1, summary: 'A workflow.js file exports more than one workflow({...}) definition.' },
  'workflow/non-static-name': { severity: 'error', specRule: 2, summary: 'A workflow name or alias is not a string literal or a top-level const string.' },
  'workflow/invalid-name': { severity: 'error', specRule: 7, summary: 'A workflow name or alias does not match ^[A-Za-z_][A-Za-z0-9_]*$ or is reserved.' },
  'activity/non-static-name': { severity: 'error', specRule: 10, summary: 'A step or evaluator name is not a string literal or a top-level const string.' },
  'activity/invalid-name': { severity: 'error', specRule: 10, summary: 'A step or evaluator name does not match ^[A-Za-z_][A-Za-z0-9_]*$.' },
  'activity/kind-mismatch': { severity: 'warning', specRule: 1, summary: 'A step() sits in an evaluators file or an evaluator() in a steps file.' },
  'names/duplicate-workflow': { severity: 'error', specRule: 7, summary: 'Two workflows share a name or alias in the catalog.' },
  'names/duplicate-activity': { severity: 'error', specRule: 7, summary: 'Two activities of the same scope (one workflow, or one package\'s shared set) share a name.' },
  'names/shared-activity-overridden': { severity: 'warning', specRule: 7, summary: 'Two shared activities from different sources share a name; the first registration wins.' },
  'names/scoped-shadows-shared': { severity: 'error', specRule: 8, summary: 'A workflow-scoped activity has the same name as a shared activity.' },
  'parse/syntax-error': { severity: 'error', summary: 'A file discovery must read does not parse as an ES module.' },
  'fs/file-too-large': { severity: 'error', summary: 'A file is larger than the size cap; it is not parsed.' },
  'fs/unreadable': { severity: 'error', summary: 'A file or directory discovery must read cannot be read.' },
  'fs/symlink-loop': { severity: 'warning', summary: 'A symlink leads back into a directory already being walked (or cannot be resolved); it is skipped.' },
} as const satisfies Record<string, RuleMeta>;

/** A rule id discovery emits. */
export type RuleId = keyof typeof RULES;

/** Every rule id, sorted. */
export const RULE_IDS = (Object.keys(RULES) as RuleId[]).sort();
