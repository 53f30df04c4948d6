/**
 * The rule registry: every rule the validator runs, and the metadata of the findings its engine reports
 * directly (syntax errors, oversize files, unreadable files, paths leaving the package).
 */
import { docsPath, MESSAGES, RULE_IDS, RULES } from '@skein/discovery';
import type { FileRule, ProjectRule, RuleMeta } from '../types.js';
import { rule as sharedFolderName } from './definitions/shared-folder-name.js';
import { meta as outsidePackage } from './fs/outside-package.js';
import { rule as misplacedDefinition } from './conventions/misplaced-definition.js';
import { rule as corePeerDependency } from './packaging/core-peer-dependency.js';
import { rule as javascriptSources } from './packaging/javascript-sources.js';
import { rule as typeDeclarations } from './packaging/type-declarations.js';
import { rule as zodPeerDependency } from './packaging/zod-peer-dependency.js';
import { rule as importStyle } from './steps/import-style.js';
import { rule as namedExportsOnly } from './steps/named-exports-only.js';
import { rule as noTopLevelCall } from './steps/no-top-level-call.js';
import { rule as noNodeGlobals } from './workflow/no-node-globals.js';
import { rule as noNodeModules } from './workflow/no-node-modules.js';
import { rule as noNondeterministicApis } from './workflow/no-nondeterministic-apis.js';

/** Rules whose visitors run in each file's single traversal. */
export const fileRules: readonly FileRule[] = [
  misplacedDefinition,
  namedExportsOnly,
  importStyle,
  noTopLevelCall,
  noNodeGlobals,
  noNondeterministicApis,
];

/** Rules over the manifest, the packages and the module graph. */
export const projectRules: readonly ProjectRule[] = [
  sharedFolderName,
  corePeerDependency,
  javascriptSources,
  typeDeclarations,
  zodPeerDependency,
  noNodeModules,
];

/** Findings the engine reports itself (paths leaving the package). */
export const engineRuleMetas: readonly RuleMeta[] = [outsidePackage];

/**
 * Metadata of every rule id of the analysis, discovery's and the validator's, sorted by id (for docs and SARIF):
 * the validator's own rules with their message templates, the core's with theirs (`MESSAGES` of @skein/discovery).
 */
export const allRuleMetas: readonly RuleMeta[] = (() => {
  const own = new Map([...fileRules.map((r) => r.meta), ...projectRules.map((r) => r.meta), ...engineRuleMetas].map((m) => [m.id, m]));
  return RULE_IDS.map((id): RuleMeta => {
    const found = own.get(id);
    if (found) return found;
    const entry: { severity: RuleMeta['severity']; specRule?: number; summary: string } = RULES[id];
    const templates = Object.entries((MESSAGES as Record<string, Record<string, { message: string; hint: string }>>)[id] ?? {});
    const messages = Object.fromEntries(templates.map(([messageId, t]) => [messageId, t.message]));
    const hints = Object.fromEntries(templates.map(([messageId, t]) => [messageId, t.hint]));
    const meta: RuleMeta = { id, severity: entry.severity, description: entry.summary, docs: { path: docsPath(id) }, messages, hints };
    if (entry.specRule !== undefined) meta.specRule = entry.specRule;
    return meta;
  });
})();
