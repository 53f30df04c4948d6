/**
 * Dependency maps read from an untrusted package.json (rules/packaging/package-json.ts): each of the four fields is
 * `{}` when absent or not an object; ranges that are not strings are kept as their string form.
 */
import { describe, expect, it } from 'vitest';
import { dependencyFields } from '../src/rules/packaging/package-json.js';

describe('dependencyFields', () => {
  it('reads each dependency field by its own name', () => {
    expect(dependencyFields({ dependencies: { a: '1' }, optionalDependencies: { b: '2' }, peerDependencies: { c: '3' }, devDependencies: { d: '4' } })).toEqual(
      {
        dependencies: { a: '1' },
        optionalDependencies: { b: '2' },
        peerDependencies: { c: '3' },
        devDependencies: { d: '4' },
      },
    );
  });

  it('gives {} for a missing, null, string or array field, and stringifies ranges that are not strings', () => {
    expect(dependencyFields({ dependencies: null, optionalDependencies: 'zod', peerDependencies: ['zod'], devDependencies: { zod: 4, x: true } })).toEqual({
      dependencies: {},
      optionalDependencies: {},
      peerDependencies: {},
      devDependencies: { zod: '4', x: 'true' },
    });
    expect(dependencyFields({})).toEqual({ dependencies: {}, optionalDependencies: {}, peerDependencies: {}, devDependencies: {} });
  });
});
