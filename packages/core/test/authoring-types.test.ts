/**
 * The authoring API's types: types/authoring.ts is compiled here with the repository's compiler options; each
 * `@ts-expect-error` in it must meet an error, or the compiler reports the directive itself. (Types only: nothing in
 * it runs.)
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeDiagnostics } from '../../../test/support/typecheck.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('authoring types', () => {
  it('type what fn returns as the output schema’s input and a call as its output, and still reject a wrong return', () => {
    expect(typeDiagnostics(path.join(HERE, 'types/authoring.ts'))).toEqual([]);
  }, 60_000);
});
