#!/usr/bin/env node
/**
 * Regenerates `packages/discovery/src/generated/visitor-keys.ts`: `VISITOR_KEYS` of the installed `@babel/types`
 * (per AST node type, the keys of its child nodes in source order), as a plain table. The analysis walks every tree
 * with it; importing `@babel/types` itself to read it costs 16–25 ms of module evaluation (its node definitions are
 * built at load), which the `--cache` fast path pays for one changed file (bench/validate-cache). `@babel/types`
 * stays the source: a unit test fails when the committed table differs from it (after a Babel upgrade, run
 * `npm run generate:visitor-keys`).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VISITOR_KEYS } from '@babel/types';

/** Where the generated table lives. */
export const VISITOR_KEYS_FILE = path.resolve(import.meta.dirname, '../packages/discovery/src/generated/visitor-keys.ts');

const HEADER = `/**
 * \`VISITOR_KEYS\` of @babel/types: per AST node type, the keys of its child nodes, in source order.
 * Do not edit: run \`npm run generate:visitor-keys\` after upgrading Babel (scripts/generate-visitor-keys.mjs says why
 * the table is not read from @babel/types at run time).
 */
`;

/**
 * Renders the generated file's text from a visitor-key table (`@babel/types`' `VISITOR_KEYS` when omitted).
 * @param {Record<string, readonly string[]>} [table]
 * @returns {string} the file's full text
 */
export function renderVisitorKeys(table = VISITOR_KEYS) {
  const rows = Object.keys(table)
    .sort()
    .map((type) => `  ${type}: [${table[type].map((key) => `'${key}'`).join(', ')}],`);
  return `${HEADER}export const VISITOR_KEYS: Readonly<Record<string, readonly string[]>> = {\n${rows.join('\n')}\n};\n`;
}

async function main() {
  await writeFile(VISITOR_KEYS_FILE, renderVisitorKeys());
  process.stdout.write(`wrote ${path.relative(process.cwd(), VISITOR_KEYS_FILE)}\n`);
}

if (import.meta.main) await main();
