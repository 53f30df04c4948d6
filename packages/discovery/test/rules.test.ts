import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES, type RuleId } from '../src/index.js';
import { discoverFixture } from './helpers.js';

const docs = fileURLToPath(new URL('../../../docs/rules/', import.meta.url));
const src = fileURLToPath(new URL('../src/', import.meta.url));

describe('rule catalog', () => {
  it.each(RULE_IDS)('%s has a docs page with what, why, bad and good', (id) => {
    const page = `${docs}${id}.md`;
    expect(existsSync(page)).toBe(true);
    const text = readFileSync(page, 'utf8');
    expect(text.startsWith(`# ${id}\n`)).toBe(true);
    expect(text).toContain(`- Severity: **${RULES[id].severity}**`);
    for (const section of ['## What it catches', '## Why', '## Bad', '## Good']) expect(text).toContain(section);
  });

  it('uses kebab-case ids with a prefix', () => {
    for (const id of RULE_IDS) expect(id).toMatch(/^[a-z]+\/[a-z]+(-[a-z]+)*$/);
  });

  it('never loads package code: no dynamic import, require or createRequire in the sources (but of its own dependencies, by name)', () => {
    const found: string[] = [];
    const dependencies = Object.keys((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: object }).dependencies);
    type Call = { type?: string; callee?: Call & { name?: string }; arguments?: Array<{ type: string; value?: unknown }>; loc?: { start: { line: number } } };
    // `createRequire(import.meta.url)('<a dependency of this package>')`: a library loaded lazily, never a package's code.
    const requiresDependency = (n: Call) =>
      n.type === 'CallExpression' &&
      n.callee?.type === 'CallExpression' &&
      n.callee.callee?.type === 'Identifier' &&
      n.callee.callee.name === 'createRequire' &&
      n.arguments?.[0]?.type === 'StringLiteral' &&
      dependencies.includes(n.arguments[0].value as string);
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
      const ast = parse(readFileSync(`${src}${file}`, 'utf8'), { sourceType: 'module', plugins: ['typescript'] });
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as Call;
        if (requiresDependency(n)) return;
        if (
          n.type === 'ImportExpression' ||
          (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && /^(require|createRequire)$/.test(n.callee.name ?? ''))
        ) {
          found.push(`${file}:${n.loc?.start.line}`);
        }
        for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value);
      };
      visit(ast.program);
    }
    expect(found).toEqual([]);
  });

  it('every finding in every fixture has a message, a hint, and the severity and package rule of its rule', async () => {
    const fixtures = readdirSync(fileURLToPath(new URL('../../../fixtures/discovery/', import.meta.url)));
    const seen = new Set<string>();
    for (const name of fixtures) {
      const m = await discoverFixture(name, { maxFileBytes: 3000 });
      for (const d of m.diagnostics) {
        seen.add(d.ruleId);
        const meta: { severity: string; docs: { packageRule?: number } } = RULES[d.ruleId as RuleId];
        expect(meta, d.ruleId).toBeDefined();
        expect(d.severity).toBe(meta.severity);
        expect(d.packageRule).toBe(meta.docs.packageRule);
        expect(d.message.length).toBeGreaterThan(10);
        expect(d.hint?.length ?? 0, `${d.ruleId} ${d.file}`).toBeGreaterThan(10);
        expect(d.line).toBeGreaterThanOrEqual(1);
        expect(d.column).toBeGreaterThanOrEqual(1);
      }
    }
    // Every rule except the ones that need a temp dir or an in-memory file system appears in a committed fixture.
    // Package mode has its own test (package-mode.test.ts); a broken root package.json has package-flags.test.ts (a
    // committed one would trip every tool that reads the repository's package.json files).
    const elsewhere = ['fs/symlink-loop', 'fs/unreadable', 'package/not-exposed', 'package/invalid-root-json'];
    expect(RULE_IDS.filter((id) => !seen.has(id) && !elsewhere.includes(id))).toEqual([]);
  });
});
