/**
 * Startup errors for project modules Node cannot load as TypeScript (issue "TypeScript at run time": type-only
 * syntax Node cannot strip gets a clear error naming file and line). Self-contained (Node built-ins only).
 */
import { fileURLToPath } from 'node:url';

/** Node's codes for TypeScript it cannot run by stripping types. */
const TYPESCRIPT_CODES = new Set(['ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_INVALID_TYPESCRIPT_SYNTAX', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING']);

const ADVICE: Record<string, string> = {
  ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX:
    'Node runs .ts from source by erasing types, which cannot compile enums, namespaces or constructor parameter properties. ' +
    'Use erasable syntax instead (a union of string literals or an `as const` object; fields assigned in the constructor), ' +
    'set "erasableSyntaxOnly": true in tsconfig.json so tsc reports these, or build with tsc and run `skein worker` on the output.',
  ERR_INVALID_TYPESCRIPT_SYNTAX: 'Fix the syntax error, or build with tsc to see every error.',
  ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING: 'Packages under node_modules must publish JavaScript: build the package with tsc.',
};

/**
 * Where Node says a TypeScript load error is: the `file:///…:<line>` header of its stack, then a snippet: either
 * the source line with a line of carets under the offending span (one-line spans; a context line may come
 * first) or the lines of the span with `  > ` marking its first line (longer spans; column = that line's first
 * non-blank character).
 */
function locate(stack: string): { file: string; line: number; column: number } | undefined {
  const lines = stack.split('\n');
  const m = /^(file:\/\/\S+):(\d+)$/.exec(lines[0] ?? '');
  if (!m) return undefined;
  const snippet = lines.slice(1, 6);
  const caret = snippet.find((l) => /^\s*\^+\s*$/.test(l))?.indexOf('^') ?? -1;
  const marked = snippet.find((l) => l.startsWith('  > '))?.slice(4);
  const column = caret >= 0 ? caret + 1 : marked !== undefined ? marked.search(/\S|$/) + 1 : 1;
  return { file: fileURLToPath(m[1]!), line: Number(m[2]), column };
}

/**
 * A one-paragraph startup message for `err` when it is Node refusing a TypeScript file:
 * `<file>:<line>:<column>: <Node's message>. <what to do>`. Undefined for any other error.
 */
export function describeTypeScriptLoadError(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !TYPESCRIPT_CODES.has(code)) return undefined;
  const e = err as Error;
  const where = locate(e.stack ?? '');
  const message = e.message.split('\n')[0]!.replace(/\.$/, '');
  return `${where ? `${where.file}:${where.line}:${where.column}: ` : ''}${message}. ${ADVICE[code]}`;
}
