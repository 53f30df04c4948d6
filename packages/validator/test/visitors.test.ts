/**
 * The name patterns of the global-reference visitors: what a file must spell for the visitors to act (a rule's
 * `words` and the visitors' `VISIT_SCOPE` are one pattern), and one pattern and one scope table per name set.
 */
import { VISIT_SCOPE } from '@skein/discovery';
import { describe, expect, it } from 'vitest';
import { globalNamesPattern, visitGlobalReferences } from '../src/rules/util/visitors.js';

describe('globalNamesPattern', () => {
  it('matches the names as whole words', () => {
    const pattern = globalNamesPattern(new Set(['process', 'fetch']));
    expect(['process.env', "globalThis['fetch']", 'processing', 'prefetch()'].map((t) => pattern.test(t))).toEqual([true, true, false, false]);
  });

  it('is one object per name set', () => {
    const names = new Set(['Date']);
    expect(globalNamesPattern(names)).toBe(globalNamesPattern(names));
    expect(globalNamesPattern(new Set(['Date']))).not.toBe(globalNamesPattern(names));
  });
});

describe('visitGlobalReferences', () => {
  it("scopes identifiers and members (globalThis['x'] too) by the names' pattern, one table per name set", () => {
    const names = new Set(['setTimeout']);
    const words = globalNamesPattern(names);
    const scope = visitGlobalReferences(names, () => undefined)[VISIT_SCOPE];
    expect(scope).toEqual({ Identifier: words, MemberExpression: words, OptionalMemberExpression: words });
    expect(scope?.Identifier).toBe(words);
    expect(visitGlobalReferences(names, () => undefined)[VISIT_SCOPE]).toBe(scope);
  });
});
