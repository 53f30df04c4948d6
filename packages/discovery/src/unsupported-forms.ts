/**
 * The forms package rule 3 does not support in an entry or barrel, found anywhere in a module during its single
 * traversal: CommonJS exports (`module.exports = …`, `exports.x = …`, `Object.defineProperty(exports, …)`), and, read
 * from the import sites the one collector records (import-sites.ts), `require()` calls, dynamic `import()` and
 * computed specifiers. `export * as ns` is found with the module's top-level facts (module-info.ts).
 */
import type * as t from '@babel/types';
import { positionOf, type Position } from './finding.js';
import { importCollector, type ImportSite } from './import-sites.js';
import { keyName, staticStringOf } from './static-values.js';
import { mayMatch, VISIT_SCOPE, type RuleVisitor, type SourceFacts } from './visitor-table.js';

/** A construct package rule 3 does not support in an entry or barrel. */
export type UnsupportedForm =
  | { kind: 'commonjs'; what: string; position: Position; source?: string; binding?: string }
  | { kind: 'dynamic-import'; source: string; position: Position }
  | { kind: 'computed-path'; what: string; position: Position }
  | { kind: 'namespace-reexport'; source: string; exported: string; position: Position };

/** The part of a module's facts the traversal fills (`ModuleInfo` has both lists). */
export interface ModuleFacts {
  importSites: ImportSite[];
  unsupported: UnsupportedForm[];
}

function isModuleExports(node: t.Node): boolean {
  return (
    node.type === 'MemberExpression' &&
    node.object.type === 'Identifier' &&
    node.object.name === 'module' &&
    keyName(node.property, node.computed) === 'exports'
  );
}

function isExportsObject(node: t.Node): boolean {
  return (node.type === 'Identifier' && node.name === 'exports') || isModuleExports(node);
}

/** `module.exports = …`, `exports.x = …` (also written `module['exports']`), `Object.defineProperty(exports, …)`. */
const EXPORTS_WORD = /\bexports\b/;
const COMMONJS_EXPORTS_SCOPE = { AssignmentExpression: EXPORTS_WORD, CallExpression: EXPORTS_WORD } as const;

/** A `[start, end)` character range of a CommonJS export form. */
type Range = [number, number];

/**
 * The visitor for CommonJS exports anywhere in a module (`module.exports = …`, `exports.x = …`,
 * `Object.defineProperty(exports, …)`), pushed to `out`; the range of each goes to `ranges`, since a `require()`
 * inside one is part of that form, not a second one.
 */
function commonJsExportsVisitor(out: UnsupportedForm[], ranges: Range[]): RuleVisitor {
  return {
    AssignmentExpression({ node: n }) {
      if (n.left.type !== 'MemberExpression') return;
      const left = n.left;
      if (!isModuleExports(left) && !isExportsObject(left.object)) return;
      const binding = isModuleExports(left) ? undefined : keyName(left.property, left.computed);
      const what = isModuleExports(left) ? 'module.exports = …' : `${isModuleExports(left.object) ? 'module.exports' : 'exports'}.${binding ?? '[…]'} = …`;
      const right = n.right;
      const source =
        right.type === 'CallExpression' && right.callee.type === 'Identifier' && right.callee.name === 'require'
          ? staticStringOf(right.arguments[0])
          : undefined;
      out.push({ kind: 'commonjs', what, position: positionOf(n), ...(source !== undefined && { source }), ...(binding !== undefined && { binding }) });
      ranges.push([n.start ?? 0, n.end ?? 0]);
    },
    CallExpression({ node: n }) {
      const callee = n.callee;
      if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || callee.object.name !== 'Object') return;
      const first = n.arguments[0];
      const method = keyName(callee.property, callee.computed);
      if (first && isExportsObject(first) && (method === 'defineProperty' || method === 'assign' || method === 'defineProperties')) {
        out.push({ kind: 'commonjs', what: `Object.${method}(exports, …)`, position: positionOf(n) });
        ranges.push([n.start ?? 0, n.end ?? 0]);
      }
    },
    [VISIT_SCOPE]: COMMONJS_EXPORTS_SCOPE,
  };
}

/**
 * The unsupported form each `require()` and `import()` site is: a static `require` is CommonJS (unless it lies inside
 * a CommonJS export form, which is reported instead), a static `import()` a dynamic import, and either one with a
 * specifier that is not a static string a computed path. `import` and `export … from` sites are supported.
 */
function formsOfSites(sites: readonly ImportSite[], ranges: readonly Range[], out: UnsupportedForm[]): void {
  for (const site of sites) {
    if (site.kind === 'require') {
      if (ranges.some(([s, e]) => site.start >= s && site.start < e)) continue;
      out.push(
        site.specifier === null
          ? { kind: 'computed-path', what: 'require()', position: site.position }
          : { kind: 'commonjs', what: `require('${site.specifier}')`, position: site.position, source: site.specifier },
      );
    } else if (site.kind === 'dynamic-import') {
      out.push(
        site.specifier === null
          ? { kind: 'computed-path', what: 'import()', position: site.position }
          : { kind: 'dynamic-import', source: site.specifier, position: site.position },
      );
    }
  }
}

/** Orders forms by line, then column. */
function byPosition(a: { position: Position }, b: { position: Position }): number {
  return a.position.line - b.position.line || a.position.column - b.position.column;
}

/**
 * Discovery's part in the single traversal of a module whose facts `info` holds: the import-site collector
 * (filling `info.importSites`) and, unless the text (`source`, for a cleanly parsed file) lacks the word `exports`,
 * the CommonJS export visitor. After the walk, `finish()` turns the sites into unsupported forms and sorts
 * `info.unsupported` by position.
 */
export function moduleFactsVisitors(info: ModuleFacts, source: SourceFacts | undefined): { visitors: RuleVisitor[]; finish(): void } {
  const ranges: Range[] = [];
  const visitors = [importCollector(info.importSites)];
  if (mayMatch(source, EXPORTS_WORD)) visitors.push(commonJsExportsVisitor(info.unsupported, ranges));
  return {
    visitors,
    finish() {
      formsOfSites(info.importSites, ranges, info.unsupported);
      info.unsupported.sort(byPosition);
    },
  };
}
