/**
 * What counts as an import site, decided in one place for both layers: `import`, `export … from`, `import('x')`, and
 * a call of the global `require` (a `require` bound in the file, a parameter or a local function, is not Node's and
 * imports nothing). `importCollector` records the sites with a string specifier for the validator's import graph;
 * discovery's unsupported-forms visitor asks `isRequireCall` of the same calls. Type-only imports are skipped (they do
 * not reach the workflow bundle).
 */
import type { Node, StringLiteral } from '@babel/types';
import type { RulePath } from './traverse.js';
import { IMPORT_CALL, REQUIRE_WORD, VISIT_SCOPE, type RuleVisitor } from './visitor-table.js';

/** A static import site, 1-based position. */
export interface ImportSite {
  specifier: string;
  line: number;
  column: number;
}

function site(source: StringLiteral | Node | null | undefined): ImportSite | null {
  if (!source || source.type !== 'StringLiteral') return null;
  return { specifier: source.value, line: source.loc?.start.line ?? 1, column: (source.loc?.start.column ?? 0) + 1 };
}

/** True when `path` is a call of the global `require` (not one bound in the file), whatever its arguments. */
export function isGlobalRequireCall(path: RulePath): boolean {
  const node = path.node;
  return node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require' && !path.scope.hasBinding('require');
}

/** True when `path` is a call of the global `require` with one string argument. */
export function isRequireCall(path: RulePath): boolean {
  const node = path.node;
  return isGlobalRequireCall(path) && node.type === 'CallExpression' && node.arguments.length === 1 && node.arguments[0]?.type === 'StringLiteral';
}

const COLLECTOR_SCOPE = {
  ImportDeclaration: 'module',
  ExportNamedDeclaration: 'module',
  ExportAllDeclaration: 'module',
  ImportExpression: IMPORT_CALL,
  CallExpression: REQUIRE_WORD,
} as const;

/** Returns a visitor that pushes every static import site of the traversed file into `sites`. */
export function importCollector(sites: ImportSite[]): RuleVisitor {
  const push = (s: ImportSite | null) => {
    if (s) sites.push(s);
  };
  return {
    ImportDeclaration(path) {
      if (path.node.importKind === 'type' || path.node.importKind === 'typeof') return;
      push(site(path.node.source));
    },
    ExportNamedDeclaration(path) {
      if (path.node.exportKind === 'type') return;
      push(site(path.node.source));
    },
    ExportAllDeclaration(path) {
      if (path.node.exportKind === 'type') return;
      push(site(path.node.source));
    },
    ImportExpression(path) {
      push(site(path.node.source));
    },
    CallExpression(path) {
      if (isRequireCall(path)) push(site(path.node.arguments[0]));
    },
    [VISIT_SCOPE]: COLLECTOR_SCOPE,
  };
}
