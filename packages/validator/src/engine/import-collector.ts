/**
 * A visitor, merged into every file's single traversal, that records the file's static imports:
 * `import`, `export … from`, `require('x')` and `import('x')` with a string specifier. Type-only
 * imports are skipped (they do not reach the workflow bundle).
 */
import type { Node, StringLiteral } from '@babel/types';
import { IMPORT_CALL, REQUIRE_WORD, VISIT_SCOPE, type RulePath, type RuleVisitor } from '@skein/discovery';

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

/** True when `path` is a call of the global `require` with one string argument. */
export function isRequireCall(path: RulePath): boolean {
  const node = path.node;
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'require' &&
    node.arguments.length === 1 &&
    node.arguments[0]?.type === 'StringLiteral' &&
    !path.scope.hasBinding('require')
  );
}

const COLLECTOR_SCOPE = { ImportDeclaration: 'module', ExportNamedDeclaration: 'module', ExportAllDeclaration: 'module', ImportExpression: IMPORT_CALL, CallExpression: REQUIRE_WORD } as const;

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
