/**
 * The one diagnostics registry: every rule id the analysis can report, discovery's and the validator's alike, as
 * data: severity, the SPEC rule it serves, a one-line summary, and which layer reports it. Findings take their
 * severity from here; SARIF describes every rule from here. Each id has a page at `docs/rules/<rule-id>.md` (the
 * id's `/` is a folder: `docs/rules/reexport/commonjs.md`); the validator's rules add their message templates.
 */
import type { Severity } from './finding.js';

/** Static facts about one rule. */
export interface RuleMeta {
  severity: Severity;
  /** The SPEC "Rules for external workflow packages" number it enforces, when there is one. */
  specRule?: number;
  /** What it catches, one line. */
  summary: string;
  /** `discovery` for findings of `discover()`, `validator` for the validator's rules on top of it. */
  layer?: 'validator';
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
  'reexport/cycle': { severity: 'error', specRule: 2, summary: 'A named re-export leads back to itself (export { a } from a module that re-exports a from the first); Node refuses to load the module.' },
  'reexport/unresolved': { severity: 'error', specRule: 2, summary: 'A relative re-export points at a file that does not exist.' },
  'imports/namespace': { severity: 'error', specRule: 3, summary: 'Workflow code imports a workflow package or workflow file as a namespace (import * as x).' },
  'imports/dynamic': { severity: 'error', specRule: 3, summary: 'Workflow code loads a workflow package or workflow file with a dynamic import().' },
  'conventions/unexpected-file': { severity: 'warning', specRule: 1, summary: 'A steps/ or evaluators/ folder holds something other than source files (.ts, .mts, .js, .mjs).' },
  'conventions/unreachable-workflow': { severity: 'warning', specRule: 2, summary: 'A workflow file of an exposed package is not reachable from its entry point; it is not registered.' },
  'conventions/misplaced-definition': { severity: 'error', specRule: 1, layer: 'validator', summary: 'A step() or evaluator() outside a steps/evaluators file, or a workflow() outside a workflow file; it is not registered where it is.' },
  'conventions/no-workflows': { severity: 'error', specRule: 1, summary: 'A project or package serves no workflow (no workflow files, or none reachable from the package entry).' },
  'package/not-exposed': { severity: 'error', specRule: 4, summary: 'A package validated as a workflow package lacks the boolean expose flag (missing, misspelt or not true).' },
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
  'parse/syntax-error': { severity: 'error', summary: 'A file the analysis must read does not parse as an ES module (or as TypeScript for .ts/.mts).' },
  'fs/file-too-large': { severity: 'error', summary: 'A file is larger than the size cap; it is not parsed.' },
  'fs/unreadable': { severity: 'error', summary: 'A file or directory discovery must read cannot be read.' },
  'fs/symlink-loop': { severity: 'warning', summary: 'A symlink leads back into a directory already being walked (or cannot be resolved); it is skipped.' },
  'fs/outside-package': { severity: 'error', layer: 'validator', summary: 'Files and imports of a workflow package stay inside the package (no symlink or `..` path leaving it).' },
  'packaging/zod-peer-dependency': { severity: 'error', specRule: 5, layer: 'validator', summary: 'A published package whose declaration files import `zod` lists `zod` in `peerDependencies`.' },
  'packaging/javascript-sources': { severity: 'error', specRule: 5, layer: 'validator', summary: 'Published workflow, steps and evaluators files are JavaScript; a `.ts` source needs its built `.js`.' },
  'packaging/core-peer-dependency': { severity: 'error', specRule: 5, layer: 'validator', summary: 'A published workflow package declares `@skein/core` as a peer dependency, never a regular one.' },
  'packaging/type-declarations': { severity: 'warning', specRule: 5, layer: 'validator', summary: 'Published workflow, steps and evaluators files have `.d.ts` declarations next to them.' },
  'definitions/shared-folder-name': { severity: 'error', specRule: 1, layer: 'validator', summary: 'No workflow folder is named `shared`; that folder is reserved for shared steps and evaluators.' },
  'workflow/no-nondeterministic-apis': { severity: 'error', specRule: 12, layer: 'validator', summary: 'Workflow code does not use APIs the workflow sandbox forbids as non-deterministic (`WeakRef`, `FinalizationRegistry`).' },
  'workflow/no-node-modules': { severity: 'error', specRule: 12, layer: 'validator', summary: 'Workflow code, and everything it imports, does not import Node built-in modules.' },
  'workflow/no-node-globals': { severity: 'error', specRule: 12, layer: 'validator', summary: 'Workflow code does not use Node-only globals (`process`, `__dirname`, dynamic `require`) or I/O globals.' },
  'steps/no-top-level-call': { severity: 'error', specRule: 9, layer: 'validator', summary: 'Steps and evaluators are called only from inside a workflow function, never at module top level.' },
  'steps/import-style': { severity: 'error', specRule: 9, layer: 'validator', summary: 'Steps and evaluators are imported only with named imports or destructured `require`.' },
  'steps/named-exports-only': { severity: 'error', specRule: 9, layer: 'validator', summary: 'Files of steps and evaluators export each step or evaluator by name; no default export, no `export *`.' },
} as const satisfies Record<string, RuleMeta>;

/** A rule id discovery emits. */
export type RuleId = keyof typeof RULES;

/** Every rule id, sorted. */
export const RULE_IDS = (Object.keys(RULES) as RuleId[]).sort();

/** The docs page of a rule, relative to the repository root. */
export function docsPath(id: RuleId): string {
  return `docs/rules/${id}.md`;
}
