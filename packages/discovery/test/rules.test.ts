import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES } from '../src/index.js';

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

  it('never loads package code: no dynamic import, require or createRequire in the sources', () => {
    const found: string[] = [];
    for (const file of readdirSync(src)) {
      const ast = parse(readFileSync(`${src}${file}`, 'utf8'), { sourceType: 'module', plugins: ['typescript'] });
      const visit = (node: unknown): void => {
        if (!node || typeof node !== 'object') return;
        if (Array.isArray(node)) return node.forEach(visit);
        const n = node as { type?: string; callee?: { type: string; name?: string }; loc?: { start: { line: number } } };
        if (n.type === 'ImportExpression' || (n.type === 'CallExpression' && n.callee?.type === 'Identifier' && /^(require|createRequire)$/.test(n.callee.name ?? ''))) {
          found.push(`${file}:${n.loc?.start.line}`);
        }
        for (const [key, value] of Object.entries(node)) if (key !== 'loc') visit(value);
      };
      visit(ast.program);
    }
    expect(found).toEqual([]);
  });
});
