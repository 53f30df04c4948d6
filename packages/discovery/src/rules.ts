/**
 * The core's own rules: every finding `discover()` and the module store report, each described in the one rule shape
 * (`RuleMeta`: severity, docs, and each message id's message and hint with `{{placeholder}}`s). A finding is reported
 * as `(ruleId, messageId, data)` through `Diagnostics.report`, whose message ids are typed per rule: a misspelt one
 * does not build. The validator's rules own their definitions in their own files (`createRule` of
 * `@skein/validator`); this registry holds none of them. Each id has a page at `docs/rules/<rule-id>.md`.
 */
import type { MessageTemplate, RuleDocs, RuleMeta } from './rule-meta.js';
import type { Severity } from './finding.js';

const FIX_FORMS = "export { default as greet } from './greet/workflow.js' or export * from './greet/workflow.js'";
const EXPOSE = '"skein": { "workflows": { "expose": true } }';

/** A core rule as written in the registry: a `RuleMeta` whose id is its key. */
interface CoreRule {
  severity: Severity;
  docs: RuleDocs;
  messages: Record<string, MessageTemplate>;
}

export const RULES = {
  'package/no-expose-flag': {
    severity: 'warning',
    docs: { description: 'Workflow code imports a workflow from a package that does not set "skein": { "workflows": { "expose": true } }.', packageRule: 4 },
    messages: {
      notExposed: {
        message: '{{what}} is a workflow, but {{pkg}} {{state}}, so it is not registered and calling it fails at runtime with "workflow does not exist".',
        hint: `Add ${EXPOSE} to {{manifest}}.`,
      },
    },
  },
  'package/nested-install': {
    severity: 'warning',
    docs: {
      description:
        "Workflow code of an installed package imports a workflow from an exposed package installed in that package's own node_modules, which discovery does not serve.",
      packageRule: 4,
    },
    messages: {
      unserved: {
        message:
          '{{what}} is a workflow of {{pkg}} {{version}}, installed at {{dir}} for this package alone: discovery serves only the packages the project itself resolves, so it is not registered and the child workflow never starts.',
        hint: 'Install {{pkg}} in the project (npm install {{pkg}}@{{version}}), at a version this package accepts, so that one install serves both.',
      },
      shadowed: {
        message:
          "{{what}} is a workflow of {{pkg}} {{version}}, installed at {{dir}} for this package alone: discovery serves the project's {{pkg}} {{served}} instead, so the child workflow runs that version's code.",
        hint: 'Make one version of {{pkg}} serve both: install in the project a version this package accepts (npm install {{pkg}}@{{version}}, then npm dedupe).',
      },
    },
  },
  'package/invalid-expose-flag': {
    severity: 'warning',
    docs: { description: 'A package sets skein.workflows.expose to something other than the boolean true, or misspells the flag.', packageRule: 4 },
    messages: {
      invalid: {
        message: '{{name}} sets "skein.workflows.expose" to {{value}}, not the boolean true; its workflows are not discovered.',
        hint: `Set ${EXPOSE} (the boolean, not a string).`,
      },
      misspelt: {
        message: "{{name}}'s package.json: {{problem}}; its workflows are not discovered.",
        hint: `Write the flag as ${EXPOSE}.`,
      },
    },
  },
  'package/invalid-json': {
    severity: 'warning',
    docs: { description: 'A package.json cannot be read or parsed; the package is skipped.', packageRule: 4 },
    messages: {
      unreadable: { message: 'Cannot read {{file}} ({{code}}); the package is skipped.', hint: 'Check the file permissions.' },
      syntax: { message: '{{file}} is not valid JSON ({{reason}}); the package is skipped.', hint: 'Fix the JSON syntax (no trailing commas or comments).' },
    },
  },
  'package/invalid-root-json': {
    severity: 'error',
    docs: { description: "The validated project's or package's own package.json cannot be read or parsed: Node cannot load its modules.", packageRule: 4 },
    messages: {
      unreadable: { message: 'Cannot read {{file}} ({{code}}): no module of this project can be loaded.', hint: 'Check the file permissions.' },
      syntax: {
        message: '{{file}} is not valid JSON ({{reason}}): Node cannot load any module of this project, nor the worker bundle its workflows.',
        hint: 'Fix the JSON syntax (no trailing commas or comments).',
      },
    },
  },
  'package/missing-manifest': {
    severity: 'warning',
    docs: { description: 'A directory in node_modules (or the project root) has no package.json.', packageRule: 4 },
    messages: { missing: { message: '{{dir}} has no package.json.', hint: 'Add a package.json, or remove the directory.' } },
  },
  'entry/not-found': {
    severity: 'error',
    docs: { description: 'An exposed package has no entry point discovery can resolve (exports, main, index.js).', packageRule: 2 },
    messages: {
      unresolved: {
        message: '{{name}} exposes workflows but its entry point cannot be resolved: {{reason}}.',
        hint: 'Point "exports" (or "main") at an ES module that re-exports the workflows, e.g. "exports": { ".": "./index.js" }.',
      },
      unbuilt: {
        message: '{{name}} exposes workflows but its entry point cannot be resolved: {{reason}}; the package looks not built yet.',
        hint: 'Build it first (its build script, for example `npm run build`), then validate: a package is judged as it is published, from {{folder}}/.',
      },
    },
  },
  'reexport/commonjs': {
    severity: 'error',
    docs: { description: 'A package entry or barrel uses CommonJS (module.exports, exports.x, require()).', packageRule: 3 },
    messages: {
      commonjs: {
        message: 'CommonJS ({{what}}): discovery reads only static ESM re-exports, so nothing exported this way is registered.',
        hint: 'Use an ESM re-export: {{form}}.',
      },
    },
  },
  'reexport/dynamic': {
    severity: 'error',
    docs: { description: 'A package entry or barrel uses a dynamic import().', packageRule: 3 },
    messages: {
      dynamic: {
        message: "import('{{source}}') is dynamic; discovery does not follow it, so workflows loaded this way are not registered.",
        hint: 'Re-export statically: {{form}}.',
      },
    },
  },
  'reexport/computed-path': {
    severity: 'error',
    docs: { description: 'An import() or require() path is computed at runtime.', packageRule: 3 },
    messages: {
      computed: {
        message: '{{what}} with a path computed at runtime cannot be followed statically.',
        hint: `Name each workflow file literally: ${FIX_FORMS}.`,
      },
    },
  },
  'reexport/non-relative': {
    severity: 'warning',
    docs: { description: 'A package entry or barrel re-exports workflows from a non-relative path.', packageRule: 2 },
    messages: {
      nonRelative: {
        message: "'{{source}}' is not a relative path; discovery does not follow it, so workflows behind it are not registered from this package.",
        hint: `Re-export workflows of this package with relative paths: ${FIX_FORMS}. Another package's workflows are discovered from that package when it sets ${EXPOSE}.`,
      },
    },
  },
  'reexport/ambiguous-star': {
    severity: 'error',
    docs: {
      description: 'Two export * of a package entry or barrel export the same name, a workflow: ES modules leave the name out, so it is not registered.',
      packageRule: 3,
    },
    messages: {
      ambiguous: {
        message:
          "export * from '{{second}}' and export * from '{{first}}' both export '{{name}}', a workflow: ES modules leave an ambiguous name out of the module's exports, so it is not registered.",
        hint: "Re-export each under a name of its own: export { {{name}} as <name> } from '{{first}}' and from '{{second}}'.",
      },
    },
  },
  'reexport/missing-export': {
    severity: 'error',
    docs: {
      description:
        'A package entry or barrel re-exports a name the module it names does not export: Node refuses to load the entry, and the bundler the workflows.',
      packageRule: 2,
    },
    messages: {
      missing: {
        message: "'{{source}}' has no export named '{{name}}' (it exports {{exported}}): the re-export fails when the module is loaded.",
        hint: "Re-export a name '{{source}}' exports: a workflow file's default export as export { default as {{name}} } from '{{source}}'.",
      },
    },
  },
  'reexport/namespace': {
    severity: 'error',
    docs: {
      description: 'A package entry or barrel exports a namespace object holding workflows (export * as ns from, or import * as ns then export { ns }).',
      packageRule: 3,
    },
    messages: {
      exportStarAs: {
        message: "export * as {{name}} from '{{source}}' exports a namespace object; its workflows are not registered.",
        hint: `Re-export each workflow by name: ${FIX_FORMS}.`,
      },
      exportedNamespace: {
        message: "'{{name}}' exports the namespace of '{{source}}' (import * as {{local}}); its workflows are not registered.",
        hint: `Re-export each workflow by name: ${FIX_FORMS}.`,
      },
    },
  },
  'reexport/runtime-assembly': {
    severity: 'error',
    docs: { description: 'Workflows are exported inside a value assembled at runtime (object, array, call).', packageRule: 3 },
    messages: {
      assembled: {
        message: "Workflow '{{name}}' is exported inside the value of export '{{exportName}}', assembled at runtime; discovery cannot see it there.",
        hint: `Export each workflow directly: ${FIX_FORMS}.`,
      },
    },
  },
  'reexport/cycle': {
    severity: 'error',
    docs: {
      description:
        'A named re-export leads back to itself (export { a } from a module that re-exports a from the first, by name or through export *); Node refuses to load the module.',
      packageRule: 2,
    },
    messages: {
      cycle: {
        message:
          "'{{name}}' is re-exported from '{{source}}' in a cycle ({{chain}}): it never reaches a definition, and Node refuses to load the module (SyntaxError: Detected cycle while resolving name '{{name}}'), so nothing exported through it is registered.",
        hint: "Re-export '{{name}}' from the module that defines it, e.g. export { default as {{name}} } from './{{name}}/workflow.js'.",
      },
      starCycle: {
        message:
          "'{{name}}' is re-exported from '{{source}}' in a cycle that passes through export * ({{chain}}): it never reaches a definition, and Node refuses to load the module (SyntaxError: the requested module does not provide an export named '{{name}}'), so nothing exported through it is registered.",
        hint: "Re-export '{{name}}' from the module that defines it, e.g. export { default as {{name}} } from './{{name}}/workflow.js'.",
      },
    },
  },
  'reexport/unresolved': {
    severity: 'error',
    docs: { description: 'A relative re-export points at a file that does not exist.', packageRule: 2 },
    messages: {
      unresolved: {
        message: "'{{specifier}}' does not resolve to a file ({{file}}).",
        hint: "Point the re-export at an existing file with its full relative path and extension, e.g. './greet/workflow.js'.",
      },
    },
  },
  'imports/namespace': {
    severity: 'error',
    docs: { description: 'Workflow code imports a workflow package or workflow file as a namespace (import * as x).', packageRule: 3 },
    messages: {
      file: {
        message: "import * as {{local}} from '{{source}}' imports a workflow file as a namespace.",
        hint: "Import the workflow by name: import {{local}} from '{{source}}'.",
      },
      package: {
        message:
          "import * as {{local}} from '{{source}}' imports the workflow package {{pkg}} as a namespace; discovery and the worker cannot tell which workflows it calls.",
        hint: "Import each workflow by name: import { greet } from '{{source}}'.",
      },
    },
  },
  'imports/dynamic': {
    severity: 'error',
    docs: { description: 'Workflow code loads a workflow package or workflow file with a dynamic import().', packageRule: 3 },
    messages: {
      dynamic: {
        message: "import('{{source}}') loads workflow code dynamically; the workflows it calls cannot be known statically.",
        hint: 'Import each workflow at the top of the module: {{form}}.',
      },
    },
  },
  'conventions/unexpected-file': {
    severity: 'warning',
    docs: {
      description: 'A convention folder (or a folder nested in it) holds something other than source files (.ts, .mts, .js, .mjs).',
      packageRule: 1,
    },
    messages: {
      file: {
        message: '{{path}} is not a source file (.ts, .mts, .js, .mjs) in the convention folder {{dir}}; it is ignored.',
        hint: 'Only source files (.ts, .mts, .js, .mjs, with their .d.ts / .map companions) belong in {{dir}}/; move it elsewhere.',
      },
    },
  },
  'conventions/unreachable-workflow': {
    severity: 'warning',
    docs: { description: 'A workflow file of an exposed package is not reachable from its entry point; it is not registered.', packageRule: 2 },
    messages: {
      unreachable: {
        message: '{{file}} looks like a workflow but is not reachable from the entry point of {{pkg}}; it is not registered.',
        hint: "Re-export it from the package entry: export { default as <name> } from '{{specifier}}'.",
      },
    },
  },
  'conventions/no-workflows': {
    severity: 'error',
    docs: { description: 'A project or package serves no workflow (no workflow files, or none reachable from the package entry).', packageRule: 1 },
    messages: {
      none: { message: 'The {{what}} serves no workflow: {{why}}.', hint: '{{fix}}' },
    },
  },
  'package/not-exposed': {
    severity: 'error',
    docs: { description: 'A package validated as a workflow package lacks the boolean expose flag (missing, misspelt or not true).', packageRule: 4 },
    messages: {
      notExposed: {
        message: `{{name}} is validated as a workflow package, but its package.json does not set ${EXPOSE} ({{problem}}); no worker will discover its workflows.`,
        hint: `Add ${EXPOSE} to package.json (the boolean true, spelled exactly so).`,
      },
    },
  },
  'workflow/no-definition': {
    severity: 'error',
    docs: { description: 'A workflow.js file exports no workflow({...}) definition.', packageRule: 1 },
    messages: {
      none: {
        message: '{{file}} exports no workflow({ ... }) definition.',
        hint: "Export one: export default workflow({ name: 'greet', fn: async (input) => ... }).",
      },
    },
  },
  'workflow/multiple-definitions': {
    severity: 'error',
    docs: { description: 'A workflow.js file exports more than one workflow({...}) definition.', packageRule: 1 },
    messages: {
      several: {
        message: "{{file}} exports more than one workflow; only the first ('{{first}}') is registered.",
        hint: 'Put each workflow in its own folder with its own workflow.js, steps and evaluators.',
      },
    },
  },
  'workflow/non-static-name': {
    severity: 'error',
    docs: { description: 'A workflow name or alias is not a string literal or a top-level const string.', packageRule: 2 },
    messages: {
      nonStatic: {
        message: 'The {{what}} is not a string literal or a top-level const string, so discovery cannot read it.',
        hint: "Write it literally: { name: 'summarize' }, or const NAME = 'summarize' at the top level and { name: NAME }.",
      },
    },
  },
  'workflow/invalid-name': {
    severity: 'error',
    docs: { description: 'A workflow name or alias does not match ^[A-Za-z_][A-Za-z0-9_]*$ or is reserved.', packageRule: 7 },
    messages: {
      reserved: { message: "The {{what}} '{{name}}' is reserved for the per-catalog registry workflow.", hint: 'Choose another name, e.g. catalog_sync.' },
      pattern: {
        message: "The {{what}} '{{name}}' does not match ^[A-Za-z_][A-Za-z0-9_]*$.",
        hint: 'Use letters, digits and underscores, not starting with a digit, e.g. summarize_text.',
      },
    },
  },
  'activity/non-static-name': {
    severity: 'error',
    docs: { description: 'A step or evaluator name is not a string literal or a top-level const string.', packageRule: 10 },
    messages: {
      nonStatic: {
        message: 'The {{what}} is not a string literal or a top-level const string, so discovery cannot read it.',
        hint: "Write it literally: { name: 'summarize' }, or const NAME = 'summarize' at the top level and { name: NAME }.",
      },
    },
  },
  'activity/invalid-name': {
    severity: 'error',
    docs: { description: 'A step or evaluator name does not match ^[A-Za-z_][A-Za-z0-9_]*$.', packageRule: 10 },
    messages: {
      pattern: {
        message: "The {{what}} '{{name}}' does not match ^[A-Za-z_][A-Za-z0-9_]*$.",
        hint: 'Use letters, digits and underscores, not starting with a digit, e.g. summarize_text.',
      },
    },
  },
  'activity/kind-mismatch': {
    severity: 'warning',
    docs: { description: 'A step() sits in an evaluators file or an evaluator() in a steps file.', packageRule: 1 },
    messages: {
      mismatch: { message: "{{kind}}() '{{name}}' is defined in {{fileKind}} file; it is registered as {{registeredAs}}.", hint: 'Move it to {{target}}.' },
    },
  },
  'names/duplicate-workflow': {
    severity: 'error',
    docs: { description: 'Two workflows share a name or alias in the catalog.', packageRule: 7 },
    messages: {
      duplicate: {
        message:
          "'{{key}}' is {{what}} '{{name}}' of {{owner}} ({{file}}) and also {{firstWhat}} '{{firstName}}' of {{firstOwner}} ({{firstFile}}); workflow names and aliases share one catalog namespace.",
        hint: 'Rename one of the workflows or drop the alias.',
      },
    },
  },
  'names/duplicate-activity': {
    severity: 'error',
    docs: { description: "Two activities of the same scope (one workflow, or one package's shared set) share a name.", packageRule: 7 },
    messages: {
      duplicate: { message: '{{activity}} has the same name as {{first}} in {{scope}}; activity names are unique per scope.', hint: 'Rename one of them.' },
    },
  },
  'names/shared-activity-overridden': {
    severity: 'warning',
    docs: { description: 'Two shared activities from different sources share a name; the first registration wins.', packageRule: 7 },
    messages: {
      overridden: {
        message:
          'Shared {{activity}} of {{owner}} has the same name as shared {{first}} of {{firstOwner}}; the first registration ({{firstFile}}) wins and this one is not registered.',
        hint: 'Rename one of them if both are needed; registration order is the project first, then packages by name.',
      },
    },
  },
  'names/scoped-shadows-shared': {
    severity: 'error',
    docs: { description: 'A workflow-scoped activity has the same name as a shared activity.', packageRule: 8 },
    messages: {
      shadows: {
        message: "{{activity}} of workflow '{{workflow}}' has the same name as shared {{shared}} of {{owner}}; both would register as '{{type}}'.",
        hint: 'Rename the workflow-scoped activity, or delete it and use the shared one.',
      },
    },
  },
  'parse/syntax-error': {
    severity: 'error',
    docs: { description: 'A file the analysis must read does not parse as an ES module (or as TypeScript for .ts/.mts).' },
    messages: {
      syntax: {
        message: 'Syntax error in {{file}}: {{reason}}.',
        hint: 'Fix the syntax; workflow code must be plain ES modules or TypeScript that @babel/parser reads.',
      },
      tooDeep: {
        message: '{{file}} cannot be analysed: {{reason}}.',
        hint: 'Fix the syntax; workflow code must be plain ES modules or TypeScript that @babel/parser reads.',
      },
    },
  },
  'fs/file-too-large': {
    severity: 'error',
    docs: { description: 'A file is larger than the size cap; it is not parsed.' },
    messages: {
      tooLarge: {
        message: '{{file}} is {{size}} bytes, over the {{max}}-byte cap; it is not parsed.',
        hint: 'Split the file, or raise the size cap (`maxFileBytes`, `--max-file-bytes`).',
      },
    },
  },
  'fs/unreadable': {
    severity: 'error',
    docs: { description: 'A file or directory discovery must read cannot be read.' },
    messages: {
      file: { message: 'Cannot read {{file}} ({{code}}).', hint: 'Check that the file exists and is readable.' },
      notAFile: { message: 'Cannot read {{file}} (EISDIR).', hint: 'Point the import at a file.' },
      directory: { message: 'Cannot read directory {{dir}} ({{code}}).', hint: 'Check its permissions, or remove it.' },
      walkRoot: {
        message: 'Cannot resolve directory {{dir}} ({{code}}).',
        hint: 'Check that the directory exists, is readable, and is not a looping symlink.',
      },
      projectRoot: { message: 'Cannot read the project root {{dir}} ({{code}}).', hint: 'Pass the directory that holds the project package.json.' },
    },
  },
  'fs/symlink-loop': {
    severity: 'warning',
    docs: { description: 'A symlink leads back into a directory already being walked (or cannot be resolved); it is skipped.' },
    messages: {
      loops: { message: 'Symlink {{path}} cannot be resolved: it loops.', hint: 'Remove the symlink or point it at a real directory.' },
      ancestor: {
        message: 'Symlink {{path}} points back to {{target}}, a directory that contains it; it is not followed.',
        hint: 'Remove the symlink or point it outside its own ancestors.',
      },
      packageLoops: {
        message: 'Symlink {{path}} cannot be resolved: it loops; it is skipped.',
        hint: 'Remove the symlink or point it at a package directory.',
      },
      walkRoot: {
        message: 'Cannot resolve directory {{dir}} ({{code}}).',
        hint: 'Check that the directory exists, is readable, and is not a looping symlink.',
      },
      projectRoot: { message: 'Cannot read the project root {{dir}} ({{code}}).', hint: 'Pass the directory that holds the project package.json.' },
    },
  },
} as const satisfies Record<string, CoreRule>;

/** A rule id the core reports. */
export type RuleId = keyof typeof RULES;
/** The core's rule ids (the same as `RuleId`). */
export type CoreRuleId = RuleId;
/** The message ids of one core rule. */
export type MessageId<R extends RuleId> = keyof (typeof RULES)[R]['messages'] & string;

/** Every core rule id, sorted. */
export const RULE_IDS = (Object.keys(RULES) as RuleId[]).sort();

/** The core's rules as `RuleMeta`s, sorted by id (for reporters that list every rule, with the validator's). */
export const CORE_RULE_METAS: readonly RuleMeta[] = RULE_IDS.map((id): RuleMeta => ({ id, ...(RULES[id] as CoreRule) }));
