/**
 * The message templates of the core's rules (the registry's `RULES` holds id, severity, SPEC rule and summary; this
 * holds, per rule, each message id's message and hint with `{{placeholder}}`s). A finding is reported as
 * `(ruleId, messageId, data)`; its text is rendered here, once, by `renderMessage`, which the validator's rules use
 * too. Message ids are typed per rule: a misspelt one does not build.
 */
import type { RuleId } from './rules.js';

/** A message and its hint, with `{{name}}` placeholders filled from the finding's data. */
export interface Template {
  message: string;
  hint: string;
}

const FIX_FORMS = "export { default as greet } from './greet/workflow.js' or export * from './greet/workflow.js'";
const EXPOSE = '"skein": { "workflows": { "expose": true } }';

export const MESSAGES = {
  'package/no-expose-flag': {
    notExposed: { message: '{{what}} is a workflow, but {{pkg}} {{state}}, so it is not registered and calling it fails at runtime with "workflow does not exist".', hint: `Add ${EXPOSE} to {{manifest}}.` },
  },
  'package/invalid-expose-flag': {
    invalid: { message: '{{name}} sets "skein.workflows.expose" to {{value}}, not the boolean true; its workflows are not discovered.', hint: `Set ${EXPOSE} (the boolean, not a string).` },
  },
  'package/invalid-json': {
    unreadable: { message: 'Cannot read {{file}} ({{code}}); the package is skipped.', hint: 'Check the file permissions.' },
    syntax: { message: '{{file}} is not valid JSON ({{reason}}); the package is skipped.', hint: 'Fix the JSON syntax (no trailing commas or comments).' },
  },
  'package/missing-manifest': { missing: { message: '{{dir}} has no package.json.', hint: 'Add a package.json, or remove the directory.' } },
  'package/not-exposed': {
    notExposed: { message: `{{name}} is validated as a workflow package, but its package.json does not set ${EXPOSE} ({{problem}}); no worker will discover its workflows.`, hint: `Add ${EXPOSE} to package.json (the boolean true, spelled exactly so).` },
  },
  'entry/not-found': {
    unresolved: { message: '{{name}} exposes workflows but its entry point cannot be resolved: {{reason}}.', hint: 'Point "exports" (or "main") at an ES module that re-exports the workflows, e.g. "exports": { ".": "./index.js" }.' },
  },
  'reexport/commonjs': { commonjs: { message: 'CommonJS ({{what}}): discovery reads only static ESM re-exports, so nothing exported this way is registered.', hint: 'Use an ESM re-export: {{form}}.' } },
  'reexport/dynamic': { dynamic: { message: "import('{{source}}') is dynamic; discovery does not follow it, so workflows loaded this way are not registered.", hint: 'Re-export statically: {{form}}.' } },
  'reexport/computed-path': { computed: { message: '{{what}} with a path computed at runtime cannot be followed statically.', hint: `Name each workflow file literally: ${FIX_FORMS}.` } },
  'reexport/non-relative': {
    nonRelative: {
      message: "'{{source}}' is not a relative path; discovery does not follow it, so workflows behind it are not registered from this package.",
      hint: `Re-export workflows of this package with relative paths: ${FIX_FORMS}. Another package's workflows are discovered from that package when it sets ${EXPOSE}.`,
    },
  },
  'reexport/namespace': {
    exportStarAs: { message: "export * as {{name}} from '{{source}}' exports a namespace object; its workflows are not registered.", hint: `Re-export each workflow by name: ${FIX_FORMS}.` },
    exportedNamespace: { message: "'{{name}}' exports the namespace of '{{source}}' (import * as {{local}}); its workflows are not registered.", hint: `Re-export each workflow by name: ${FIX_FORMS}.` },
  },
  'reexport/runtime-assembly': {
    assembled: { message: "Workflow '{{name}}' is exported inside the value of export '{{exportName}}', assembled at runtime; discovery cannot see it there.", hint: `Export each workflow directly: ${FIX_FORMS}.` },
  },
  'reexport/cycle': {
    cycle: {
      message: "'{{name}}' is re-exported from '{{source}}' in a cycle ({{chain}}): it never reaches a definition, and Node refuses to load the module (SyntaxError: Detected cycle while resolving name '{{name}}'), so nothing exported through it is registered.",
      hint: "Re-export '{{name}}' from the module that defines it, e.g. export { default as {{name}} } from './{{name}}/workflow.js'.",
    },
  },
  'reexport/unresolved': {
    unresolved: { message: "'{{specifier}}' does not resolve to a file ({{file}}).", hint: "Point the re-export at an existing file with its full relative path and extension, e.g. './greet/workflow.js'." },
  },
  'imports/namespace': {
    file: { message: "import * as {{local}} from '{{source}}' imports a workflow file as a namespace.", hint: "Import the workflow by name: import {{local}} from '{{source}}'." },
    package: {
      message: "import * as {{local}} from '{{source}}' imports the workflow package {{pkg}} as a namespace; discovery and the worker cannot tell which workflows it calls.",
      hint: "Import each workflow by name: import { greet } from '{{source}}'.",
    },
  },
  'imports/dynamic': {
    dynamic: { message: "import('{{source}}') loads workflow code dynamically; the workflows it calls cannot be known statically.", hint: "Import each workflow by name at the top of the module: import { greet } from '{{source}}'." },
  },
  'conventions/unexpected-file': {
    folder: { message: '{{path}} is a nested folder in the convention folder {{dir}}; it is ignored.', hint: 'Move its files up into {{dir}}/ (folders are one level deep), or out of the convention folder.' },
    file: { message: '{{path}} is not a source file (.ts, .mts, .js, .mjs) in the convention folder {{dir}}; it is ignored.', hint: 'Only source files (.ts, .mts, .js, .mjs, with their .d.ts / .map companions) belong in {{dir}}/; move it elsewhere.' },
  },
  'conventions/unreachable-workflow': {
    unreachable: { message: '{{file}} looks like a workflow but is not reachable from the entry point of {{pkg}}; it is not registered.', hint: "Re-export it from the package entry: export { default as <name> } from './{{specifier}}'." },
  },
  'conventions/no-workflows': {
    none: { message: 'The {{what}} serves no workflow: {{why}}.', hint: '{{fix}}' },
  },
  'workflow/no-definition': { none: { message: '{{file}} exports no workflow({ ... }) definition.', hint: "Export one: export default workflow({ name: 'greet', fn: async (input) => ... })." } },
  'workflow/multiple-definitions': {
    several: { message: "{{file}} exports more than one workflow; only the first ('{{first}}') is registered.", hint: 'Put each workflow in its own folder with its own workflow.js, steps and evaluators.' },
  },
  'workflow/non-static-name': { nonStatic: { message: 'The {{what}} is not a string literal or a top-level const string, so discovery cannot read it.', hint: "Write it literally: { name: 'summarize' }, or const NAME = 'summarize' at the top level and { name: NAME }." } },
  'workflow/invalid-name': {
    reserved: { message: "The {{what}} '{{name}}' is reserved for the per-catalog registry workflow.", hint: 'Choose another name, e.g. catalog_sync.' },
    pattern: { message: "The {{what}} '{{name}}' does not match ^[A-Za-z_][A-Za-z0-9_]*$.", hint: 'Use letters, digits and underscores, not starting with a digit, e.g. summarize_text.' },
  },
  'activity/non-static-name': { nonStatic: { message: 'The {{what}} is not a string literal or a top-level const string, so discovery cannot read it.', hint: "Write it literally: { name: 'summarize' }, or const NAME = 'summarize' at the top level and { name: NAME }." } },
  'activity/invalid-name': {
    pattern: { message: "The {{what}} '{{name}}' does not match ^[A-Za-z_][A-Za-z0-9_]*$.", hint: 'Use letters, digits and underscores, not starting with a digit, e.g. summarize_text.' },
  },
  'activity/kind-mismatch': { mismatch: { message: "{{kind}}() '{{name}}' is defined in {{fileKind}} file; it is registered as {{registeredAs}}.", hint: 'Move it to {{target}}.' } },
  'names/duplicate-workflow': {
    duplicate: {
      message: "'{{key}}' is {{what}} '{{name}}' of {{owner}} ({{file}}) and also {{firstWhat}} '{{firstName}}' of {{firstOwner}} ({{firstFile}}); workflow names and aliases share one catalog namespace.",
      hint: 'Rename one of the workflows or drop the alias.',
    },
  },
  'names/duplicate-activity': { duplicate: { message: '{{activity}} has the same name as {{first}} in {{scope}}; activity names are unique per scope.', hint: 'Rename one of them.' } },
  'names/shared-activity-overridden': {
    overridden: {
      message: 'Shared {{activity}} of {{owner}} has the same name as shared {{first}} of {{firstOwner}}; the first registration ({{firstFile}}) wins and this one is not registered.',
      hint: 'Rename one of them if both are needed; registration order is the project first, then packages by name.',
    },
  },
  'names/scoped-shadows-shared': {
    shadows: { message: "{{activity}} of workflow '{{workflow}}' has the same name as shared {{shared}} of {{owner}}; both would register as '{{type}}'.", hint: 'Rename the workflow-scoped activity, or delete it and use the shared one.' },
  },
  'parse/syntax-error': {
    syntax: { message: 'Syntax error in {{file}}: {{reason}}.', hint: 'Fix the syntax; workflow code must be plain ES modules or TypeScript that @babel/parser reads.' },
    tooDeep: { message: '{{file}} cannot be analysed: {{reason}}.', hint: 'Fix the syntax; workflow code must be plain ES modules or TypeScript that @babel/parser reads.' },
  },
  'fs/file-too-large': { tooLarge: { message: '{{file}} is {{size}} bytes, over the {{max}}-byte cap; it is not parsed.', hint: 'Split the file, or raise the size cap (`maxFileBytes`, `--max-file-bytes`).' } },
  'fs/unreadable': {
    file: { message: 'Cannot read {{file}} ({{code}}).', hint: 'Check that the file exists and is readable.' },
    notAFile: { message: 'Cannot read {{file}} (EISDIR).', hint: 'Point the import at a file.' },
    directory: { message: 'Cannot read directory {{dir}} ({{code}}).', hint: 'Check its permissions, or remove it.' },
    walkRoot: { message: 'Cannot resolve directory {{dir}} ({{code}}).', hint: 'Check that the directory exists, is readable, and is not a looping symlink.' },
    projectRoot: { message: 'Cannot read the project root {{dir}} ({{code}}).', hint: 'Pass the directory that holds the project package.json.' },
  },
  'fs/symlink-loop': {
    loops: { message: 'Symlink {{path}} cannot be resolved: it loops.', hint: 'Remove the symlink or point it at a real directory.' },
    ancestor: { message: 'Symlink {{path}} points back to {{target}}, a directory that contains it; it is not followed.', hint: 'Remove the symlink or point it outside its own ancestors.' },
    packageLoops: { message: 'Symlink {{path}} cannot be resolved: it loops; it is skipped.', hint: 'Remove the symlink or point it at a package directory.' },
    walkRoot: { message: 'Cannot resolve directory {{dir}} ({{code}}).', hint: 'Check that the directory exists, is readable, and is not a looping symlink.' },
    projectRoot: { message: 'Cannot read the project root {{dir}} ({{code}}).', hint: 'Pass the directory that holds the project package.json.' },
  },
} as const satisfies Partial<Record<RuleId, Record<string, Template>>>;

/** Rules the core reports itself (with templates here). */
export type CoreRuleId = keyof typeof MESSAGES;
/** The message ids of one core rule. */
export type MessageId<R extends CoreRuleId> = keyof (typeof MESSAGES)[R] & string;

/** Replaces every `{{key}}` in `template` with `data[key]` (unknown keys are left as written). */
export function renderMessage(template: string, data: Readonly<Record<string, string>> | undefined): string {
  if (!data) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in data ? (data[key] as string) : whole));
}
