/**
 * The authoring API's types: types/authoring.ts is compiled here with the repository's compiler options; each
 * `@ts-expect-error` in it must meet an error, or the compiler reports the directive itself. (Types only: nothing in
 * it runs.)
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('authoring types', () => {
  it('type what fn returns as the output schema’s input and a call as its output, and still reject a wrong return', () => {
    const config = ts.readConfigFile(path.join(HERE, '../../../tsconfig.base.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, path.join(HERE, '../../..'));
    const program = ts.createProgram([path.join(HERE, 'types/authoring.ts')], {
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
