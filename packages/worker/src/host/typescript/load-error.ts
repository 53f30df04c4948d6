/**
 * Errors of project modules that fail to load, as one line naming file, line and column: TypeScript Node cannot
 * run by stripping types (with what to do), and a module that throws while it loads, at the place in the project's
 * code where it happened. Self-contained (Node built-ins only).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
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

/** A stack frame's place: `at f (/abs/x.ts:4:25)`, `at file:///abs/x.ts:4:25`. */
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^()]*?):(\d+):(\d+)\)?$/;

/** The folder of the package.json nearest above `file` (its own folder when there is none). */
function packageRootOf(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(file);
  }
}

/**
 * Where in its package's own code the module `file` failed to load: Node's `file:///…:<line>` stack header
 * (TypeScript it cannot strip), else the first stack frame in a file of the package `file` belongs to (whose nearest
 * package.json above it is the one nearest above `file`): the module's own line, or that of a helper of the package
 * it called; never a line of Skein's or a dependency's code (each has a package.json of its own). Undefined when
 * the stack names no such place: Node keeps a JavaScript syntax error's place out of the error's stack (the
 * validator reports those, with their place, before anything loads).
 */
export function loadErrorLocation(err: unknown, file: string): { file: string; line: number; column: number } | undefined {
  const stack = (err as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const header = locate(stack);
  if (header) return header;
  const root = packageRootOf(file);
  for (const line of stack.split('\n')) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const at = m[1]!.startsWith('file://') ? fileURLToPath(m[1]!) : m[1]!;
    // The frame's own package is the failing module's: not a workspace package linked from inside a monorepo's root.
    if (packageRootOf(at) !== root) continue;
    return { file: at, line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

/**
 * What went wrong loading the module `file`, in one line: the TypeScript explanation (`describeTypeScriptLoadError`),
 * else the error's first line and, where the stack names one, its place in the package's own code
 * (`loadErrorLocation`: ` (at /abs/file.js:12:7)`).
 */
export function describeLoadFailure(err: unknown, file: string): string {
  const typescript = describeTypeScriptLoadError(err);
  if (typescript !== undefined) return typescript;
  const where = loadErrorLocation(err, file);
  return `${String((err as Error | null)?.message ?? err).split('\n')[0]}${where ? ` (at ${where.file}:${where.line}:${where.column})` : ''}`;
}
