/**
 * Parses a source file once with @babel/parser; every file rule then shares that one AST.
 * Never evaluates the code.
 */
import { parse } from '@babel/parser';
import type { File } from '@babel/types';

/** The AST, or the syntax error's 1-based position and message. */
export type ParseResult = { ok: true; ast: File } | { ok: false; line: number; column: number; message: string };

/**
 * Parses JavaScript or TypeScript source. `.cjs` is parsed as CommonJS, `.mjs` as a module, other files
 * as whichever they turn out to be; `.ts`/`.mts`/`.cts` enable TypeScript syntax.
 * Returns the syntax error's 1-based position instead of throwing.
 */
export function parseSource(text: string, file: string): ParseResult {
  const isTs = /\.[mc]?ts$/.test(file) && !file.endsWith('.d.ts');
  const sourceType = file.endsWith('.cjs') || file.endsWith('.cts') ? 'commonjs' : file.endsWith('.mjs') || file.endsWith('.mts') ? 'module' : 'unambiguous';
  try {
    const ast = parse(text, {
      sourceType,
      sourceFilename: file,
      attachComment: false,
      allowReturnOutsideFunction: sourceType !== 'module',
      plugins: isTs ? ['typescript'] : file.endsWith('.jsx') ? ['jsx'] : [],
    });
    return { ok: true, ast };
  } catch (error) {
    const e = error as { loc?: { line: number; column: number }; message?: string; reasonCode?: string };
    const message = String(e.message ?? 'unknown syntax error').replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, line: e.loc?.line ?? 1, column: (e.loc?.column ?? 0) + 1, message };
  }
}
