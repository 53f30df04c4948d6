/**
 * Reads and parses each module once (cached by path), turning unreadable, oversized and unparsable files into
 * findings rather than exceptions. Never imports or runs the code it reads.
 */
import { parse } from '@babel/parser';
import type { Diagnostics, Position } from './diagnostics.js';
import { errorCode, type FileSystem } from './fs.js';
import { analyzeModule, type ModuleInfo } from './module-info.js';
import type { RuleId } from './rules.js';

/** Default size cap of one source file: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** A finding produced while loading a file, reported by whoever needs the file. */
export interface LoadProblem {
  ruleId: RuleId;
  file: string;
  position: Position | undefined;
  message: string;
  hint?: string;
}

/** The outcome of loading one module: its facts (absent when it could not be read or parsed) and problems. */
export interface Loaded {
  info: ModuleInfo | undefined;
  problems: LoadProblem[];
  /** True when the file does not exist (ENOENT/ENOTDIR). */
  missing?: boolean;
}

/** Caches parsed modules by absolute path. */
export class ModuleStore {
  readonly #cache = new Map<string, Promise<Loaded>>();
  #filesRead = 0;

  constructor(
    readonly fs: FileSystem,
    readonly maxFileBytes: number = DEFAULT_MAX_FILE_BYTES,
  ) {}

  /** Number of source files read so far. */
  get filesRead(): number {
    return this.#filesRead;
  }

  /** Loads `file` (once). Never rejects. */
  load(file: string): Promise<Loaded> {
    let loaded = this.#cache.get(file);
    if (!loaded) {
      loaded = this.#load(file);
      this.#cache.set(file, loaded);
    }
    return loaded;
  }

  /** Loads `file` and reports its problems to `diagnostics`. */
  async loadReporting(file: string, diagnostics: Diagnostics): Promise<ModuleInfo | undefined> {
    const { info, problems } = await this.load(file);
    for (const p of problems) diagnostics.report(p.ruleId, p.file, p.position, p.message, p.hint);
    return info;
  }

  async #load(file: string): Promise<Loaded> {
    let text: string;
    try {
      const stat = await this.fs.stat(file);
      if (stat.size > this.maxFileBytes) {
        return problem('fs/file-too-large', file, undefined, `${file} is ${stat.size} bytes, over the ${this.maxFileBytes}-byte cap; it is not parsed.`, 'Split the file, or raise `maxFileBytes` in the discovery options.');
      }
      text = await this.fs.readFile(file);
      this.#filesRead++;
    } catch (error) {
      const code = errorCode(error);
      const loaded = problem('fs/unreadable', file, undefined, `Cannot read ${file} (${code}).`, 'Check that the file exists and is readable.');
      if (code === 'ENOENT' || code === 'ENOTDIR') loaded.missing = true;
      return loaded;
    }
    let ast;
    try {
      ast = parse(text, { sourceType: 'module', errorRecovery: true, attachComment: false });
    } catch (error) {
      const loc = (error as { loc?: { line: number; column: number } }).loc;
      return problem('parse/syntax-error', file, loc ? { line: loc.line, column: loc.column + 1 } : undefined, `Syntax error in ${file}: ${stripLocation((error as Error).message)}.`, 'Fix the syntax; published files must be plain ES modules (SPEC rule 5).');
    }
    const problems: LoadProblem[] = (ast.errors ?? []).map((e) => ({
      ruleId: 'parse/syntax-error' as const,
      file,
      position: e.loc ? { line: e.loc.line, column: e.loc.column + 1 } : undefined,
      message: `Syntax error in ${file}: ${stripLocation(e.message)}.`,
      hint: 'Fix the syntax; published files must be plain ES modules (SPEC rule 5).',
    }));
    return { info: analyzeModule(file, ast.program, mayHaveUnsupportedForms(text)), problems };
  }
}

function problem(ruleId: RuleId, file: string, position: Position | undefined, message: string, hint: string): Loaded {
  return { info: undefined, problems: [{ ruleId, file, position, message, hint }] };
}

/**
 * False only when the text cannot contain CommonJS exports, `require` or `import()`: none of the words
 * `require`, `exports`, or `import` followed by `(` (comments allowed in between) occurs. Lets the full-AST
 * search for those forms be skipped for most files.
 */
function mayHaveUnsupportedForms(text: string): boolean {
  return /\brequire\b|\bexports\b|\bimport\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*\(/.test(text);
}

function stripLocation(message: string): string {
  return message.replace(/\s*\(\d+:\d+\)\s*$/, '').replace(/\.$/, '');
}
