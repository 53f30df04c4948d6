/**
 * A visitor, merged into every file's single traversal, that records the file's static imports:
 * `import`, `export … from`, `require('x')` and `import('x')` with a string specifier. Type-only
 * imports are skipped (they do not reach the workflow bundle).
 */
import type { Node, StringLiteral } from '@babel/types';
import type { RulePath, RuleVisitor } from './walker.js';

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
  };
}

/**
 * The same import sites as `importCollector`, gathered by a plain recursive walk without scope analysis:
 * used for dependency files, where only imports matter and speed does (a shadowed `require` is not
 * distinguished from the global one there).
 */
export function collectImportsFast(root: Node): ImportSite[] {
  const sites: ImportSite[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | null;
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    const type = node.type;
    if (typeof type !== 'string') continue;
    if (type === 'ImportDeclaration' || type === 'ExportNamedDeclaration' || type === 'ExportAllDeclaration') {
      const kind = (node.importKind ?? node.exportKind) as string | undefined;
      if (kind !== 'type' && kind !== 'typeof') {
        const s = site(node.source as Node | null);
        if (s) sites.push(s);
      }
    } else if (type === 'ImportExpression') {
      const s = site(node.source as Node);
      if (s) sites.push(s);
    } else if (type === 'CallExpression') {
      const callee = node.callee as { type: string; name?: string };
      const args = node.arguments as Node[];
      if (callee.type === 'Identifier' && callee.name === 'require' && args.length === 1) {
        const s = site(args[0]);
        if (s) sites.push(s);
      }
    }
    for (const key in node) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
      const child = node[key];
      if (child && typeof child === 'object') stack.push(child);
    }
  }
  return sites.sort((a, b) => a.line - b.line || a.column - b.column);
}
