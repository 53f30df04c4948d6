/**
 * The one parser call of the analysis (`@babel/parser`): every file is parsed here exactly once, and every
 * rule reads the resulting AST. Never evaluates the code.
 */
import { parse, type ParserPlugin } from '@babel/parser';
import type { File } from '@babel/types';
import type { Position } from './finding.js';

/** A syntax error at a 1-based position (the message without Babel's trailing `(line:column)`). */
export interface SyntaxProblem {
  position: Position;
  message: string;
}

/** The AST (absent only when the file cannot be parsed at all) and every syntax error, recovered ones included. */
export interface ParsedSource {
  ast: File | undefined;
  errors: SyntaxProblem[];
}

/** True for TypeScript sources (`.ts`, `.mts`, `.cts`, `.tsx`); `.d.ts` declaration files included. */
export function isTypeScriptFile(file: string): boolean {
  return /\.[mc]?tsx?$/.test(file);
}

/** TypeScript's decorators, legacy and standard (a class's `accessor` fields with them). */
const TS_PLUGINS: ParserPlugin[] = ['typescript', 'decorators-legacy', 'decoratorAutoAccessors'];

function pluginsFor(file: string): ParserPlugin[] {
  if (isTypeScriptFile(file)) return file.endsWith('.tsx') ? [...TS_PLUGINS, 'jsx'] : TS_PLUGINS;
  return file.endsWith('.jsx') ? ['jsx'] : [];
}

function stripLocation(message: string): string {
  return message.replace(/\s*\(\d+:\d+\)\s*$/, '').replace(/\.$/, '');
}

/**
 * Parses JavaScript or TypeScript by extension: `.ts`/`.mts`/`.cts`/`.tsx` with the `typescript` and decorator
 * plugins; `.cjs` as CommonJS (top-level `return` allowed, as Babel's `commonjs` source type implies; passing
 * `allowReturnOutsideFunction` as well is a Babel error); `.cts` as a module when it uses `import`/`export` (which
 * TypeScript compiles to `require`), else as CommonJS, top-level `return` included; everything else as an ES module. A leading BOM and CRLF line
 * ends are accepted (positions count lines as editors do). Syntax errors Babel can recover from are returned with
 * the AST; others with no AST. Never throws.
 */
export function parseSource(text: string, file: string): ParsedSource {
  try {
    const ast = parse(text, {
      ...(file.endsWith('.cjs')
        ? { sourceType: 'commonjs' }
        : file.endsWith('.cts')
          ? { sourceType: 'unambiguous', allowReturnOutsideFunction: true }
          : { sourceType: 'module' }),
      sourceFilename: file,
      errorRecovery: true,
      attachComment: false,
      plugins: pluginsFor(file),
    });
    const errors = ast.errors.map((e) => ({ position: { line: e.loc.line, column: e.loc.column + 1 }, message: stripLocation(e.message) }));
    return { ast, errors };
  } catch (error) {
    const e = error as { loc?: { line: number; column: number }; message?: string };
    return {
      ast: undefined,
      errors: [{ position: { line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1 }, message: stripLocation(String(e.message ?? 'unknown syntax error')) }],
    };
  }
}
