/**
 * `createRule`'s types: a rule's `context.report` accepts only its own message ids. types/report-message-ids.ts is
 * compiled here with the repository's compiler options; each `@ts-expect-error` in it must meet an error, or the
 * compiler reports the directive itself. (Left out of the mutation run: mutants change behaviour, never types, and
 * Stryker's instrumented sources do not type-check.)
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('createRule types', () => {
  it('rejects message ids a rule does not declare, at compile time', () => {
    const config = ts.readConfigFile(path.join(HERE, '../../../tsconfig.base.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, path.join(HERE, '../../..'));
    const program = ts.createProgram([path.join(HERE, 'types/report-message-ids.ts')], {
      ...options,
      noEmit: true,
      composite: false,
      declaration: false,
      declarationMap: false,
      customConditions: ['@skein/source'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
