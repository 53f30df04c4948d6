/**
 * Definitions made by calling a factory: a top-level function that returns `step({ name, … })` (or `evaluator()`,
 * `workflow()`, a wrapper factory's call) named by one of its parameters (module-info.ts `Factory`). In
 * `export const fetchUsers = httpStep('fetchUsers', url)` the export is the step `fetchUsers`, whether `httpStep` is
 * declared in the same module or imported by name from a relative one (through its re-exports). The facts of each
 * module stay its own (a persistent cache keys them by the file's content); the link is made when a module is
 * loaded, from the facts of the modules it imports.
 */
import type { Position } from './finding.js';
import type { Definition, Factory, FactoryCall, ModuleInfo, StaticString, ValueBinding } from './module-info.js';
import { isRelative } from './module-path.js';

/** How linking reaches other modules: their facts by path, and the file a relative specifier names. */
export interface FactoryModules {
  /** The facts of `file` (as loaded: linked or not, a factory is the module's own fact); undefined when unreadable. */
  load(file: string): ModuleInfo | undefined;
  /** The file `specifier` names, imported from `from`. */
  resolve(from: string, specifier: string): string;
}

/** How many re-exports a factory is followed through (a longer chain is a cycle). */
const MAX_REEXPORTS = 16;

/**
 * The factory export `imported` of the module `specifier` names (from `from`) is, followed through re-exports; each
 * file read on the way is added to `files`.
 */
function exportedFactory(modules: FactoryModules, from: string, specifier: string, imported: string, files: string[]): Factory | undefined {
  if (files.length > MAX_REEXPORTS || !isRelative(specifier) || imported === '*') return undefined;
  const file = modules.resolve(from, specifier);
  files.push(file);
  const info = modules.load(file);
  const binding = info?.exports.get(imported);
  if (binding?.kind === 'value') return binding.factory;
  if (binding?.kind === 'reexport') return exportedFactory(modules, file, binding.source, binding.imported, files);
  const local = binding?.kind === 'local' ? info?.locals.get(binding.local) : undefined;
  if (local?.kind === 'import') return exportedFactory(modules, file, local.source, local.imported, files);
  return undefined;
}

/** `value` placed at `position`: what a factory's body says, reported at the call that uses it (the call's file is the one judged). */
const at = (value: StaticString, position: Position): StaticString => (value.ok ? { ok: true, value: value.value, position } : { ok: false, position });

/** The definition a call of `factory` makes: named by the call's argument at the factory's name parameter. */
function definitionOfCall(factory: Factory, call: FactoryCall, madeIn: string[]): Definition {
  const { name, aliases, activityId, ...rest } = factory.definition;
  const byArgument = factory.nameParam === undefined ? undefined : call.args[factory.nameParam];
  return {
    ...rest,
    calleeName: call.callee,
    position: call.position,
    name: byArgument ?? at(name ?? { ok: false, position: call.position }, call.position),
    aliases: aliases.map((a) => at(a, call.position)),
    ...(activityId ? { activityId: at(activityId, call.position) } : {}),
    ...(madeIn.length > 0 ? { madeIn } : {}),
  };
}

/**
 * `info` with each top-level value made by a factory call turned into the definition it makes (locals and exports),
 * or `info` itself when there is none. A callee is a function of `info`'s module, or an import of a relative module
 * read through `modules`. Never throws: a callee that is not a factory leaves its value as it is.
 */
export function linkFactoryCalls(info: ModuleInfo, modules: FactoryModules): ModuleInfo {
  // An exported local's export binding holds the same call as the local: each call is linked once (by its place).
  const linked = new Map<string, Definition | undefined>();
  const link = (binding: ValueBinding): Definition | undefined => {
    const call = binding.call;
    if (!call) return undefined;
    const key = `${call.position.line}:${call.position.column}`;
    if (!linked.has(key)) linked.set(key, linkCall(call));
    return linked.get(key);
  };
  const linkCall = (call: FactoryCall): Definition | undefined => {
    const callee = info.locals.get(call.callee);
    const files: string[] = [];
    const factory =
      callee?.kind === 'value'
        ? callee.factory
        : callee?.kind === 'import'
          ? exportedFactory(modules, info.file, callee.source, callee.imported, files)
          : undefined;
    return factory && definitionOfCall(factory, call, files);
  };
  let locals: ModuleInfo['locals'] | undefined;
  let exports: ModuleInfo['exports'] | undefined;
  for (const [name, binding] of info.locals) {
    const definition = binding.kind === 'value' ? link(binding) : undefined;
    if (!definition) continue;
    locals ??= new Map(info.locals);
    locals.set(name, { kind: 'definition', definition, position: binding.position });
  }
  for (const [name, binding] of info.exports) {
    const definition = binding.kind === 'value' ? link(binding) : undefined;
    if (!definition) continue;
    exports ??= new Map(info.exports);
    exports.set(name, { kind: 'definition', definition, position: binding.position });
  }
  return locals || exports ? { ...info, locals: locals ?? info.locals, exports: exports ?? info.exports } : info;
}
