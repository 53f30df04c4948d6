import { readFile } from 'node:fs/promises';
import { VISITOR_KEYS as babelVisitorKeys } from '@babel/types';
import { describe, expect, it } from 'vitest';
// The repository tool that writes the table from the installed @babel/types.
import { renderVisitorKeys, VISITOR_KEYS_FILE } from '../../../scripts/generate-visitor-keys.mjs';
import { VISITOR_KEYS } from '../src/generated/visitor-keys.js';

describe('generated visitor keys', () => {
  it('are the installed @babel/types table (run `npm run generate:visitor-keys` after upgrading Babel)', async () => {
    const committed = await readFile(VISITOR_KEYS_FILE, 'utf8');
    expect(committed === renderVisitorKeys(), 'packages/discovery/src/generated/visitor-keys.ts is out of date: npm run generate:visitor-keys').toBe(true);
    expect(VISITOR_KEYS).toEqual(babelVisitorKeys);
  });

  it('render each node type and its child keys in order', () => {
    const text = renderVisitorKeys({ B: ['test', 'body'], A: [] });
    expect(text).toContain("  A: [],\n  B: ['test', 'body'],\n};\n");
  });
});
