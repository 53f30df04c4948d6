/**
 * Dev-only parity proof for the hand-written single traversal (`walk` of @skein/discovery, kept for speed): every
 * file rule runs over every source file under fixtures/ once under `walk` and once under `@babel/traverse`, in every
 * role the rule applies to, and both must report exactly the same findings (rule, message id, position, data). So
 * must `walk` as the store runs it on a cleanly parsed file (given the text: visitors whose words the text lacks left
 * out, functions skipped when every visitor left works at module level).
 * `@babel/traverse` is a devDependency; nothing in the packages loads it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import traverse from '@babel/traverse';
import {
  analyzeModule,
  isTypeScriptFile,
  mergeVisitors,
  moduleFactsVisitors,
  parseSource,
  walk,
  type ModuleInfo,
  type RuleVisitor,
  type SourceFacts,
} from '@skein/discovery';
import { describe, expect, it } from 'vitest';
import { rulesByRole, visitorsForRole } from '../src/engine/file-linter.js';
import { fileRules } from '../src/rules/index.js';
import type { CodeRole, FileRule, ResolvedImport, ValidatorDiagnostic } from '../src/types.js';
import { REPO } from './helpers.js';

const SOURCE = /\.(?:[mc]?js|[mc]?ts)$/;
const ROLES: CodeRole[] = ['workflow', 'workflow-code', 'steps', 'evaluators', 'shared-steps', 'shared-evaluators', 'other'];

/** Every JavaScript/TypeScript source under fixtures/ (node_modules included: they are fixtures too), below 256 KiB. */
function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.isFile() && SOURCE.test(e.name) && !/\.d\.[mc]?ts$/.test(e.name) && fs.statSync(p).size < 256 * 1024) out.push(p);
  }
  return out;
}

/** Imports resolve by name: `./steps.js` is a steps file, `./evaluators.js` an evaluators file, others plain modules. */
function resolveByName(specifier: string): ResolvedImport {
  const role = /steps(\.[mc]?[jt]s)?$/.test(specifier) ? 'steps' : /evaluators(\.[mc]?[jt]s)?$/.test(specifier) ? 'evaluators' : null;
  return specifier.startsWith('.') ? { kind: 'file', path: `/pkg/${specifier}`, role, inPackage: true } : { kind: 'unresolved' };
}

function findings(file: string, role: CodeRole, rules: readonly FileRule[], run: (visitors: RuleVisitor[]) => void, source?: SourceFacts): string[] {
  const out: ValidatorDiagnostic[] = [];
  run(
    visitorsForRole(
      file,
      role,
      rulesByRole(rules),
      { resolve: (_file, specifier) => resolveByName(specifier), packageRootOf: path.dirname, report: (d) => out.push(d) },
      source,
    ),
  );
  return out.map((d) => `${d.ruleId}:${d.messageId}@${d.line}:${d.column} ${JSON.stringify(d.data ?? {})}`).sort();
}

const files = sources(path.join(REPO, 'fixtures'));

describe('walk and @babel/traverse agree for every rule over every fixture file', () => {
  it('covers the fixture tree', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(ROLES)('role %s', (role) => {
    const rules = fileRules.filter((r) => r.appliesTo.includes(role));
    let compared = 0;
    let reported = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const { ast, errors } = parseSource(text, file);
      if (!ast || errors.length > 0) continue;
      let ours: string[];
      try {
        ours = findings(file, role, rules, (v) => walk(ast, mergeVisitors(v)));
      } catch {
        continue; // a tree too deep to walk is a finding of the store, not a rule's
      }
      const babel = findings(file, role, rules, (v) => traverse(ast, traverse.visitors.merge(v as never[]) as never));
      expect(ours, `${path.relative(REPO, file)} as ${role}`).toEqual(babel);
      const source = { text, typescript: isTypeScriptFile(file) };
      const skipping = findings(file, role, rules, (v) => walk(ast, mergeVisitors(v, source)), source);
      expect(skipping, `${path.relative(REPO, file)} as ${role}, skipping`).toEqual(babel);
      compared++;
      reported += ours.length;
    }
    expect(compared).toBeGreaterThan(100);
    // The comparison is not vacuous: the fixtures make the rules report.
    if (role === 'workflow' || role === 'steps') expect(reported).toBeGreaterThan(0);
  });
});

/** The import sites and unsupported forms discovery's visitors record for `file` when `run` walks it. */
function moduleFacts(file: string, program: Parameters<typeof analyzeModule>[1], run: (visitors: RuleVisitor[]) => void, source?: SourceFacts): string {
  const info: ModuleInfo = analyzeModule(file, program);
  const { visitors, finish } = moduleFactsVisitors(info, source);
  run(visitors);
  finish();
  return JSON.stringify({ sites: info.importSites, unsupported: info.unsupported });
}

describe('the one import-site collector records the same sites under walk and @babel/traverse over every fixture file', () => {
  it('sites and the unsupported forms read from them', () => {
    let compared = 0;
    let sites = 0;
    const kinds = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const { ast, errors } = parseSource(text, file);
      if (!ast || errors.length > 0) continue;
      let ours: string;
      try {
        ours = moduleFacts(file, ast.program, (v) => walk(ast, mergeVisitors(v)));
      } catch {
        continue; // too deep to walk: a finding of the store
      }
      const babel = moduleFacts(file, ast.program, (v) => traverse(ast, traverse.visitors.merge(v as never[]) as never));
      expect(ours, path.relative(REPO, file)).toEqual(babel);
      const source = { text, typescript: isTypeScriptFile(file) };
      expect(
        moduleFacts(file, ast.program, (v) => walk(ast, mergeVisitors(v, source)), source),
        `${path.relative(REPO, file)}, skipping`,
      ).toEqual(babel);
      const parsed = JSON.parse(ours) as { sites: { kind: string }[] };
      sites += parsed.sites.length;
      for (const s of parsed.sites) kinds.add(s.kind);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
    // Not vacuous: the fixtures hold every kind of site.
    expect(sites).toBeGreaterThan(100);
    expect([...kinds].sort()).toEqual(['dynamic-import', 'export', 'import', 'require']);
  });
});
