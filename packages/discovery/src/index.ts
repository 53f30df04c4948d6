/**
 * `@skein/discovery`: exact, static discovery of workflow packages (SPEC "Rules for external workflow packages").
 * The single source of truth for which workflows, steps, evaluators and shared activities a project serves.
 * Reads package.json files and ASTs only; never imports or runs package code.
 */
export type * from './types.js';
export { discover } from './discover.js';
export { classifyFile, isCompanionFile } from './conventions.js';
export { ENTRY_CONDITIONS, resolveEntry, resolveExportsTarget, type EntryResolution, type PackageJsonLike } from './entry.js';
export { nodeFileSystem, type DirEntry, type EntryKind, type FileStat, type FileSystem } from './fs.js';
export { RULES, RULE_IDS, type RuleId, type RuleMeta } from './rules.js';
export { compareDiagnostics } from './diagnostics.js';
export { DEFAULT_MAX_FILE_BYTES } from './store.js';
