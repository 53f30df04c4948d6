/**
 * `createRule`'s types: a rule's `context.report` accepts only its own message ids. types/report-message-ids.ts is
 * compiled here with the repository's compiler options; each `@ts-expect-error` in it must meet an error, or the
 * compiler reports the directive itself. (Left out of the mutation run: mutants change behaviour, never types, and
 * Stryker's instrumented sources do not type-check.)
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeDiagnostics } from '../../../test/support/typecheck.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('createRule types', () => {
  it('rejects message ids a rule does not declare, at compile time', () => {
    expect(typeDiagnostics(path.join(HERE, 'types/report-message-ids.ts'))).toEqual([]);
  }, 60_000);
});
