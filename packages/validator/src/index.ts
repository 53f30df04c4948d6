/**
 * `@skein/validator`: checks workflow packages and projects against the package rules
 * (docs/package-rules.md) without running them. `validate()` returns findings as data; the formatters render them.
 */
export { validate, ValidationInputError, DEFAULT_MAX_FILE_BYTES } from './validate.js';
export { validateWithCache, type CachePath } from './validate-cached.js';
export { cacheFileFor, defaultCacheFile } from './cache/file-cache.js';
export { formatStylish, type StylishOptions } from './formatters/stylish.js';
export { formatJson, JSON_SCHEMA_VERSION } from './formatters/json.js';
export { formatSarif, type SarifOptions } from './formatters/sarif.js';
export { formatGithub, type GithubOptions } from './formatters/github.js';
export { run as runCli, EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, type CliIo } from './cli/run.js';
export { allRuleMetas, fileRules, projectRules } from './rules/index.js';
export { createRule, defineRuleMeta, type FileRuleDefinition, type ProjectRuleDefinition } from './create-rule.js';
export { useValidationV8Flags, VALIDATION_THREAD_LIMITS, VALIDATION_V8_FLAGS } from './thread-limits.js';
export type {
  CodeRole,
  Diagnostic,
  ExportKind,
  FileRule,
  FileRuleContext,
  Manifest,
  ProjectRule,
  ProjectRuleContext,
  Rule,
  ReportDescriptor,
  RuleMeta,
  Severity,
  ValidateOptions,
  ValidationReport,
  ValidatorDiagnostic,
} from './types.js';
export { compareVersions, compareWithShapes, type Finding } from './versioning/compare-versions.js';
export { BaselineError, BUILD_RECORD_FILE, loadBaseline, type Baseline } from './versioning/baseline.js';
export { judge as judgeVersions, type VersioningInput, type WorkflowVerdict } from './versioning/check.js';
