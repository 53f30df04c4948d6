/**
 * Compiles one TypeScript file (and what it imports) with the repository's compiler options, sources resolved through
 * the `@skein/source` condition, and returns every diagnostic as `file: message`: for tests of types, whose
 * `@ts-expect-error` lines must each meet an error (an unused one is itself reported). Emits nothing.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The diagnostics of compiling `file` (absolute), `file: message` each; empty when it type-checks. */
export function typeDiagnostics(file: string): string[] {
  const config = ts.readConfigFile(path.join(REPO, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
  const program = ts.createProgram([file], {
    ...options,
    noEmit: true,
    composite: false,
    declaration: false,
    declarationMap: false,
    customConditions: ['@skein/source'],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
