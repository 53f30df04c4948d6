/**
 * The rule registry: every rule the validator runs (the file rules listed in file-rules.ts), and the metadata of
 * the findings its engine reports directly (syntax errors, oversize files, unreadable files, paths leaving the
 * package, relative imports naming no file).
 */
import { CORE_RULE_METAS } from '@skein/discovery';
import type { ProjectRule, RuleMeta } from '../types.js';
import { fileRules } from './file-rules.js';
import { rule as sharedFolderName } from './definitions/shared-folder-name.js';
import { rule as misplacedFactoryCall } from './conventions/misplaced-factory-call.js';
import { meta as outsidePackage } from './fs/outside-package.js';
import { meta as unresolvedImport } from './fs/unresolved-import.js';
import { meta as missingExport } from './imports/missing-export.js';
import { rule as corePeerDependency } from './packaging/core-peer-dependency.js';
import { rule as javascriptSources } from './packaging/javascript-sources.js';
import { rule as seedSettingsKey } from './packaging/seed-settings-key.js';
import { rule as typeDeclarations } from './packaging/type-declarations.js';
import { rule as zodPeerDependency } from './packaging/zod-peer-dependency.js';
import { rule as noNodeModules } from './workflow/no-node-modules.js';
import { rule as outOfScope } from './steps/out-of-scope.js';
import { rule as incompatibleChange } from './versioning/incompatible-change.js';
import { rule as unprovableChange } from './versioning/unprovable-change.js';

export { fileRules } from './file-rules.js';

/** Rules over the manifest, the packages and the module graph. */
export const projectRules: readonly ProjectRule[] = [
  sharedFolderName,
  corePeerDependency,
  javascriptSources,
  seedSettingsKey,
  typeDeclarations,
  zodPeerDependency,
  noNodeModules,
  outOfScope,
  misplacedFactoryCall,
  incompatibleChange,
  unprovableChange,
];

/** Findings the engine reports itself (paths leaving the package, relative imports naming no file or a missing export). */
export const engineRuleMetas: readonly RuleMeta[] = [outsidePackage, unresolvedImport, missingExport];

/**
 * Metadata of every rule id of the analysis, the core's (`CORE_RULE_METAS` of @skein/discovery) and the validator's,
 * sorted by id (for docs and SARIF).
 */
export const allRuleMetas: readonly RuleMeta[] = [
  ...CORE_RULE_METAS,
  ...fileRules.map((r) => r.meta),
  ...projectRules.map((r) => r.meta),
  ...engineRuleMetas,
].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
