/**
 * Turning statically read `workflow()` / `step()` / `evaluator()` calls into checked names
 * (package rules 2, 7 and 10: names match `^[A-Za-z_][A-Za-z0-9_]*$`, and `$catalog` is reserved).
 */
import { CATALOG_WORKFLOW_TYPE, NAME_PATTERN } from '@skein/names';
import { classifyFile } from './conventions.js';
import type { Diagnostics } from './diagnostics.js';
import type { Definition, ModuleInfo, StaticString } from './module-info.js';

/** A workflow definition exported by a module, under `exportName` of that module. */
export interface ExportedDefinition {
  exportName: string;
  definition: Definition;
}

/** What a definition defines: its `@skein/core` callee, or for a wrapper factory the convention of its file. */
export type DefinitionKind = 'workflow' | 'step' | 'evaluator';

/**
 * The kind of a definition found in `file`: `workflow()`, `step()` and `evaluator()` say so themselves; a wrapper
 * factory (`evalWorkflow({ name })`, `verify({ name })`) is a workflow in a workflow file, a step in a steps file
 * and an evaluator in an evaluators file, and nothing elsewhere.
 */
export function kindOf(definition: Definition, file: string): DefinitionKind | undefined {
  if (definition.callee !== 'wrapper') return definition.callee;
  const role = classifyFile(file);
  if (role === 'workflow') return 'workflow';
  if (role === 'steps' || role === 'shared-steps') return 'step';
  if (role === 'evaluators' || role === 'shared-evaluators') return 'evaluator';
  return undefined;
}

/** The definitions of the given kinds a module exports under its own names (not through re-exports), in source order. */
export function exportedDefinitions(info: ModuleInfo, kinds: ReadonlySet<DefinitionKind>): ExportedDefinition[] {
  const out: ExportedDefinition[] = [];
  for (const [exportName, binding] of info.exports) {
    if (binding.kind !== 'definition') continue;
    const kind = kindOf(binding.definition, info.file);
    if (kind && kinds.has(kind)) out.push({ exportName, definition: binding.definition });
  }
  return out;
}

/** Checks one static name; returns it when usable, else reports and returns undefined. */
function checkName(
  value: StaticString,
  file: string,
  what: string,
  diagnostics: Diagnostics,
  rules: { nonStatic: 'workflow/non-static-name' | 'activity/non-static-name'; invalid: 'workflow/invalid-name' | 'activity/invalid-name' },
): string | undefined {
  if (!value.ok) {
    diagnostics.report(rules.nonStatic, 'nonStatic', file, value.position, { what });
    return undefined;
  }
  if (rules.invalid === 'workflow/invalid-name' && value.value === CATALOG_WORKFLOW_TYPE) {
    diagnostics.report('workflow/invalid-name', 'reserved', file, value.position, { what, name: value.value });
    return undefined;
  }
  if (!NAME_PATTERN.test(value.value)) {
    diagnostics.report(rules.invalid, 'pattern', file, value.position, { what, name: value.value });
    return undefined;
  }
  return value.value;
}

/** A workflow's checked name and aliases, or undefined when its name is unusable (already reported). */
export function checkWorkflowNames(def: Definition, file: string, diagnostics: Diagnostics): { name: string; aliases: string[] } | undefined {
  const rules = { nonStatic: 'workflow/non-static-name', invalid: 'workflow/invalid-name' } as const;
  const name = checkName(def.name, file, 'workflow name', diagnostics, rules);
  const aliases: string[] = [];
  for (const alias of def.aliases) {
    const a = checkName(alias, file, 'workflow alias', diagnostics, rules);
    if (a !== undefined && a !== name && !aliases.includes(a)) aliases.push(a);
  }
  return name === undefined ? undefined : { name, aliases };
}

/** An activity's checked name, or undefined when unusable (already reported). */
export function checkActivityName(def: Definition, file: string, diagnostics: Diagnostics): string | undefined {
  return checkName(def.name, file, `${kindOf(def, file) ?? def.callee} name`, diagnostics, {
    nonStatic: 'activity/non-static-name',
    invalid: 'activity/invalid-name',
  });
}
