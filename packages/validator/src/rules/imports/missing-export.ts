/**
 * `imports/missing-export`: a static `import { name } from './module.js'` (or a default import) in a package's own
 * code that the worker loads, where the relative module it names lists every export it has and none is `name`. An ES
 * module whose import names a missing export fails to link: the worker refuses the package at start (Node's
 * `SyntaxError: … does not provide an export named …`), and workflow code fails to bundle. Judged from the module
 * facts discovery records for both files, only where the named module's exports are all known (`ownExport` of
 * @skein/discovery: no CommonJS forms, `export =` or destructured exports), its `export *` followed through the
 * package's own modules (one that names a dependency, or a module whose exports are not all known, might provide
 * any name but `default`). Reported by the engine once every file is loaded (`engine/run-files.ts`), for the files the
 * worker loads: role files, the workflow code they import, and the modules activity files import.
 *
 * Not reported here: type-only imports (erased), names imported by workflow code from a steps or evaluators file
 * (`steps/import-style` says what that file exports), re-exports (`reexport/missing-export`, discovery's), and
 * imports of dependencies (bare specifiers).
 */
import { isRelative, mayExport, type ImportInfo, type ModuleInfo } from '@skein/discovery';
import { defineRuleMeta } from '../../create-rule.js';
import type { ReportDescriptor } from '../../types.js';

export const meta = defineRuleMeta({
  id: 'imports/missing-export',
  severity: 'error',
  docs: { description: 'Every name a package’s own code imports from one of its modules is exported by that module.' },
  messages: {
    missing: {
      message:
        "{{source}} has no export named '{{name}}' (it exports {{exported}}): the import fails when the module is loaded, so the worker cannot load this module.",
      hint: 'Import a name {{source}} exports (check the spelling and the module), or export `{{name}}` from it.',
    },
    missingDefault: {
      message:
        '{{source}} has no default export (it exports {{exported}}): the default import `{{local}}` fails when the module is loaded, so the worker cannot load this module.',
      hint: 'Import the name you need in braces, `import { … } from {{source}}`, or give the module an `export default`.',
    },
  },
});

type MessageId = keyof typeof meta.messages;

/** At most this many of a module's export names are listed in a finding. */
const LISTED_NAMES = 5;

/**
 * The facts of the module `source` names from `file`, when it is one of the package's own loaded modules; undefined
 * otherwise (a dependency, a file not loaded, a module that could not be parsed).
 */
export type ModuleLookup = (file: string, source: string) => ModuleInfo | undefined;

/**
 * The findings of one import declaration of a relative module whose facts are `target`: one per imported name the
 * module does not export. Empty for a namespace import, a type-only name, or a module whose exports are not all
 * known.
 * @param declaration the import as discovery recorded it in the importing module's facts
 * @param lookup follows the `export *` of `target` (and of the modules they name)
 */
export function missingExportReports(declaration: ImportInfo, target: ModuleInfo, lookup: ModuleLookup): ReportDescriptor<MessageId>[] {
  const out: ReportDescriptor<MessageId>[] = [];
  for (const specifier of declaration.specifiers) {
    const name = specifier.imported;
    if (name === '*' || specifier.typeOnly || mayExport(target, name, lookup)) continue;
    const data = { source: JSON.stringify(declaration.source), name, local: specifier.local, exported: exportedNames(target, lookup) };
    out.push({ messageId: name === 'default' ? 'missingDefault' : 'missing', data, loc: specifier.position });
  }
  return out;
}

/** The module's export names for a message (its `export *` modules' too): `'a', 'b', and 3 more`, or `nothing`. */
function exportedNames(info: ModuleInfo, lookup: ModuleLookup): string {
  const all = new Set<string>();
  const collect = (module: ModuleInfo, seen: Set<string>) => {
    if (seen.has(module.file)) return;
    const top = seen.size === 0;
    seen.add(module.file);
    for (const name of [...module.exports.keys(), ...(module.otherExports ?? [])]) if (top || name !== 'default') all.add(name);
    for (const star of module.stars) {
      const next = isRelative(star.source) ? lookup(module.file, star.source) : undefined;
      if (next) collect(next, seen);
    }
  };
  collect(info, new Set());
  const names = [...all];
  if (names.length === 0) return 'nothing';
  const listed = names
    .slice(0, LISTED_NAMES)
    .map((n) => `'${n}'`)
    .join(', ');
  return names.length > LISTED_NAMES ? `${listed}, and ${names.length - LISTED_NAMES} more` : listed;
}
