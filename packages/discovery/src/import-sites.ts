/**
 * The one import-site collector of the analysis: what counts as an import site is decided here, and one visitor in
 * each file's single traversal records every site once, with the module's facts (`ModuleInfo.importSites`).
 * Discovery's unsupported-forms findings (CommonJS `require`, dynamic `import()`, computed paths) and the validator's
 * import graph both read those records; neither walks for imports itself.
 *
 * A site is an `import … from`, an `export … from`, an `import(…)` (any argument) or a call of the global `require`
 * (any arguments; a `require` bound in the file, a parameter or a local function, is not Node's and imports nothing).
 * Type-only imports and re-exports are not sites: they do not reach the workflow bundle.
 */
import type { Node } from '@babel/types';
import { positionOf, type Position } from './finding.js';
import { staticStringOf } from './static-values.js';
import type { RulePath } from './traverse.js';
import { IMPORT_CALL, REQUIRE_WORD, VISIT_SCOPE, type RuleVisitor } from './visitor-table.js';

/** How a module is imported: `import … from`, `export … from`, `import(…)` or `require(…)`. */
export type ImportSiteKind = 'import' | 'export' | 'dynamic-import' | 'require';

/** One import site of a file. Positions are 1-based. */
export interface ImportSite {
  kind: ImportSiteKind;
  /**
   * The module specifier when it is written as a static string (a string literal, or a template literal without
   * expressions); null when it is computed (`require(name)`, `import(\`./${x}\`)`) or absent (`require()`).
   */
  specifier: string | null;
  /** Where the specifier is written; where the call is, when the specifier is not static. */
  line: number;
  column: number;
  /** Where the whole site starts: the declaration or the call. */
  position: Position;
  /** 0-based character offset of the start of the declaration or call (to tell whether it lies inside another form). */
  start: number;
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

/** The site of `node` (a declaration or call) whose specifier is written as `argument`. */
function siteOf(kind: ImportSiteKind, node: Node, argument: Node | null | undefined): ImportSite {
  const specifier = staticStringOf(argument) ?? null;
  const position = positionOf(node);
  const at = specifier === null ? position : positionOf(argument);
  return { kind, specifier, line: at.line, column: at.column, position, start: node.start ?? 0 };
}

const COLLECTOR_SCOPE = {
  ImportDeclaration: 'module',
  ExportNamedDeclaration: 'module',
  ExportAllDeclaration: 'module',
  ImportExpression: IMPORT_CALL,
  CallExpression: REQUIRE_WORD,
} as const;

/** Returns the visitor that pushes every import site of the traversed file into `sites`, in traversal (source) order. */
export function importCollector(sites: ImportSite[]): RuleVisitor {
  return {
    ImportDeclaration({ node }) {
      if (node.importKind === 'type' || node.importKind === 'typeof') return;
      sites.push(siteOf('import', node, node.source));
    },
    ExportNamedDeclaration({ node }) {
      if (node.exportKind === 'type' || !node.source) return;
      sites.push(siteOf('export', node, node.source));
    },
    ExportAllDeclaration({ node }) {
      if (node.exportKind === 'type') return;
      sites.push(siteOf('export', node, node.source));
    },
    ImportExpression({ node }) {
      sites.push(siteOf('dynamic-import', node, node.source));
    },
    CallExpression(path) {
      if (isGlobalRequireCall(path)) sites.push(siteOf('require', path.node, path.node.arguments[0]));
    },
    [VISIT_SCOPE]: COLLECTOR_SCOPE,
  };
}
