import type { BundleSettings as BundleTraceSettings } from '@skein/core/workflow';
import type { WorkflowEntry } from '@skein/discovery';
import type { LoadedWorkflow } from '../host/load.js';

/** A workflow as the generated entry module exports it: its type, its aliases, its module and the binding holding it. */
export interface EntryWorkflow {
  name: string;
  aliases: readonly string[];
  file: string;
  /** The export of `file` that holds the definition (`default` or a name). */
  binding: string;
}

/** The generated entry's `configureBundle` call before `withBundleSettings` fills it: one line, kept verbatim by webpack. */
const SETTINGS_SLOT = 'core.configureBundle({"$skein":"bundle-settings-slot"});';

/**
 * `code`, a bundle built from `workflowEntrySource`, with `settings` in its entry's `configureBundle` call: the text
 * a bundle of an entry written with those settings as a constant would have (but for its inline source map, whose
 * columns on that one line are the slot's). The slot is replaced as text, not as a pattern, so no character of a
 * trace path is special.
 * @throws Error when `code` holds the slot other than exactly once (not a bundle of a generated entry, or a module
 *   of the project that holds the slot's exact text).
 */
export function withBundleSettings(code: string, settings: BundleTraceSettings): string {
  const at = code.indexOf(SETTINGS_SLOT);
  if (at < 0 || code.indexOf(SETTINGS_SLOT, at + 1) >= 0) {
    throw new Error(`the workflow bundle holds its settings slot ${at < 0 ? 'nowhere' : 'more than once'} (${SETTINGS_SLOT})`);
  }
  const call = `core.configureBundle(${JSON.stringify(settings)});`;
  return code.slice(0, at) + call + code.slice(at + SETTINGS_SLOT.length);
}

/** The entry form of an imported workflow: its definition's name and aliases, the binding found holding it. */
export const entryWorkflowOf = (wf: LoadedWorkflow): EntryWorkflow => ({
  name: wf.facts.name,
  aliases: wf.facts.aliases,
  file: wf.entry.file,
  binding: wf.binding,
});

/**
 * The entry form of a workflow as discovery read it, before anything is imported (for a bundle begun early): the
 * same as `entryWorkflowOf` of its import unless its definition computes a name or aliases that static reading gave
 * otherwise, or another export holds it first.
 */
export const declaredEntryWorkflow = (entry: WorkflowEntry): EntryWorkflow => ({
  name: entry.name,
  aliases: entry.aliases,
  file: entry.file,
  binding: entry.localExport,
});

/**
 * Source of the generated module the workflow bundle is built from (CommonJS, written as a `.cjs` file): one
 * export per workflow name and alias (the Temporal workflow types), plus `$catalog`. Every import is an
 * absolute path. The bundle settings (the trace directory and S3 destination) are not in it: it passes a slot to
 * `configureBundle` that `withBundleSettings` fills in the bundled code, so one bundle (and one webpack build) serves
 * workers of a project whatever their trace destinations, and each bundle given to Temporal still holds its settings
 * as constants, the same for every execution of that bundle.
 *
 * Each workflow type is a getter that evaluates its workflow's module (and what that imports) when Temporal
 * first reads it in an execution: Temporal evaluates the bundle's modules again for every workflow execution
 * (`importWorkflows()`, one module cache per execution), so an execution of one workflow of a 1,000-workflow
 * project evaluates that workflow's modules, not the 999 others'. Replay-safe: an execution of a workflow
 * type evaluates the same modules, in the same order, every time (the entry, then that type's module).
 * A definition's binding is read the way an ES `import` of it reads it (webpack's interop): a module compiled
 * from ESM (`__esModule`) by name; a CommonJS module's `default` is its `module.exports`.
 */
export function workflowEntrySource(workflows: readonly EntryWorkflow[], coreWorkflowEntry: string): string {
  const lines = [
    `'use strict';`,
    `const core = require(${JSON.stringify(coreWorkflowEntry)});`,
    SETTINGS_SLOT,
    `const binding = (mod, name) => (mod && mod.__esModule) || name !== 'default' ? mod[name] : mod;`,
    `const types = Object.create(null);`,
    `const type = (name, load) => Object.defineProperty(exports, name, { enumerable: true, get: () => types[name] ??= core.workflowFunction(load()) });`,
  ];
  const exported = new Set<string>();
  for (const wf of workflows) {
    lines.push(`type(${JSON.stringify(wf.name)}, () => binding(require(${JSON.stringify(wf.file)}), ${JSON.stringify(wf.binding)}));`);
    exported.add(wf.name);
  }
  for (const wf of workflows) {
    for (const alias of wf.aliases) {
      if (exported.has(alias)) continue;
      lines.push(`Object.defineProperty(exports, ${JSON.stringify(alias)}, { enumerable: true, get: () => exports[${JSON.stringify(wf.name)}] });`);
      exported.add(alias);
    }
  }
  lines.push('exports.$catalog = core.catalogWorkflow;');
  return lines.join('\n') + '\n';
}
