/**
 * `@skein/discovery`: the analysis core. Exact, static discovery of workflow projects and packages (the package
 * rules of docs/package-rules.md), and the machinery the validator's rules run on: one file-system interface, one
 * directory walker, one package.json reader, one JSON-position helper, one parser call, one traversal, one rule shape
 * and one diagnostics sink. Reads package.json files and ASTs only; never imports or runs package code.
 */
export type * from './types.js';
export { discover, type DiscoverOptions } from './discover.js';
export { classifyFile, isCompanionFile, isDeclarationFile, isSkippedDirName, isTestFile, sourceStem, SOURCE_EXTENSIONS } from './conventions.js';
export { ENTRY_CONDITIONS, resolveEntry, resolveExportsTarget, resolveImportsTarget, type EntryResolution, type PackageJsonLike } from './entry.js';
export { splitBareSpecifier } from './imports.js';
export {
  cachingFileSystem,
  confineFileSystem,
  deepestRoot,
  errorCode,
  isInside,
  isOwnFile,
  nodeFileSystem,
  statOrUndefined,
  type DirEntry,
  type EntryKind,
  type FileStat,
  type FileSystem,
} from './fs.js';
export { CORE_RULE_METAS, RULES, RULE_IDS, type CoreRuleId, type MessageId, type RuleId } from './rules.js';
export { docsPath, renderMessage, type MessageTemplate, type RuleDocs, type RuleMeta } from './rule-meta.js';
export { compareDiagnostics, Diagnostics } from './diagnostics.js';
export { positionOf } from './finding.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  ModuleStore,
  reviveModuleInfo,
  serializeModuleInfo,
  type CachedFacts,
  type FactsCache,
  type FileRecord,
  type LoadProblem,
  type ModuleHook,
  type SerializedModuleInfo,
} from './store.js';
export { createSession, packageFactsOf, type AnalysisSession } from './session.js';
export { describePackage, MAX_PACKAGE_FILES, type PackageFacts } from './package-facts.js';
export { parseSource, isTypeScriptFile, type ParsedSource } from './parse.js';
export { patternIdentifiers, RulePath, Scope, walk, type AnyVisit, type Binding, type BindingKind, type VisitorTable } from './traverse.js';
export { VISITOR_KEYS } from './generated/visitor-keys.js';
export {
  IMPORT_CALL,
  mayMatch,
  mergeVisitors,
  REQUIRE_WORD,
  VISIT_SCOPE,
  wordPattern,
  type RuleVisitor,
  type SourceFacts,
  type VisitScope,
} from './visitor-table.js';
export { jsonErrorPosition, jsonKeyPosition, keyPosition, positionAt } from './json-position.js';
export { readManifest, readPackageJson, exposeState, checkPackageFlag, intendsWorkflowPackage, type ManifestRead, type PackageJsonRead } from './packages.js';
export { walkFiles, type WalkOptions } from './walk.js';
export { isRelative, resolveModuleFile, resolveRelativeImport, resolveSpecifier } from './module-path.js';
export { layoutOf, type Layout } from './layout.js';
export { compilerDirs, type CompilerDirs } from './tsconfig.js';
export { kindOf, type DefinitionKind } from './definitions.js';
export { importCollector, isGlobalRequireCall, isRequireCall, type ImportSite, type ImportSiteKind } from './import-sites.js';
export { analyzeModule, mayExport, ownExport, type Definition, type ImportInfo, type ModuleInfo } from './module-info.js';
export { moduleFactsVisitors, type ModuleFacts, type UnsupportedForm } from './unsupported-forms.js';
export {
  deriveCommandShapes,
  prepareForShapes,
  shapesOf,
  SHAPES_FILE,
  SHAPES_FORMAT,
  type CommandKind,
  type PartialPoint,
  type ShapeLocation,
  type ShapeNode,
  type ShapeSet,
  type WorkflowShape,
} from './shapes/index.js';
export { canonicalShape, compareShapes, sameShape, MAX_PATHS, type OldCommand, type ShapeVerdict } from './shapes/compare.js';
