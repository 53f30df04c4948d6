/**
 * Plain types at the bottom of the validator: the role a file plays for the rules, and what an import specifier
 * resolved to. The module graph, the resolver and the rule context all use them; this file imports no other file of
 * the validator.
 */
import type { FileRole } from '@skein/discovery';

/**
 * The role a file plays for the per-file rules: discovery's role, workflow code reached by imports, or `other`: any
 * other own source file (looked at only for misplaced definitions).
 */
export type CodeRole = FileRole | 'workflow-code' | 'other';

/** How an import specifier resolved, from the importing file. */
export type ResolvedImport =
  | { kind: 'file'; path: string; role: FileRole | null; inPackage: boolean }
  | { kind: 'builtin'; name: string }
  | { kind: 'sandbox-safe'; name: string }
  /** An entry of a sandbox-safe package that is Node-only itself (`@skein/core/temporal`, …): not for workflow code. */
  | { kind: 'node-only'; name: string }
  | { kind: 'outside'; path: string }
  | { kind: 'unresolved' };
