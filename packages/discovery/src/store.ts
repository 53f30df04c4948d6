/**
 * Reads, parses and walks each module once (cached by path), turning unreadable, oversized and unparsable files
 * into findings rather than exceptions. The one traversal of each file runs discovery's own visitors (the import-site
 * collector and the CommonJS export forms, both stored with the module's facts) merged with whatever visitors the session's `ModuleHook` adds (the validator's
 * rules), so no one parses or walks a file a second time. Never imports or runs the code it reads.
 */
import { hash as digest } from 'node:crypto';
import type { File } from '@babel/types';
import type { Diagnostics } from './diagnostics.js';
import type { Position } from './finding.js';
import { classifyFile } from './conventions.js';
import { errorCode, type FileSystem } from './fs.js';
import { linkFactoryCalls } from './factories.js';
import { analyzeModule, type Definition, type ModuleInfo } from './module-info.js';
import { resolveRelativeImport } from './module-path.js';
import { isTypeScriptFile, parseSource } from './parse.js';
import type { MessageId } from './rules.js';
import { walk } from './traverse.js';
import { moduleFactsVisitors } from './unsupported-forms.js';
import { mergeVisitors, type RuleVisitor, type SourceFacts } from './visitor-table.js';

const ACTIVITY_ROLES = new Set(['steps', 'evaluators', 'shared-steps', 'shared-evaluators']);

/** Default size cap of one source file: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** A finding produced while loading a file, reported by whoever needs the file. */
export type LoadProblem =
  | { ruleId: 'parse/syntax-error'; messageId: MessageId<'parse/syntax-error'>; file: string; position: Position | undefined; data: Record<string, string> }
  | { ruleId: 'fs/file-too-large'; messageId: MessageId<'fs/file-too-large'>; file: string; position: Position | undefined; data: Record<string, string> }
  | { ruleId: 'fs/unreadable'; messageId: MessageId<'fs/unreadable'>; file: string; position: Position | undefined; data: Record<string, string> };

/** The outcome of loading one module: its facts (absent when it could not be read or parsed) and problems. */
export interface Loaded {
  info: ModuleInfo | undefined;
  problems: LoadProblem[];
  /** True when the file does not exist (ENOENT/ENOTDIR). */
  missing?: boolean;
  /** The parsed tree, kept only when the store's `keepAst` was set before the file was loaded (command shapes read it). */
  ast?: File;
  /** SHA-1 (base64url) of the file's text, when the store's `hashSources` was set before the file was loaded. */
  hash?: string;
  /** For a convention file: the definitions its top-level factory calls make (linked when it loaded), if any. */
  factoryMade?: Definition[];
}

/**
 * Lets a layer above discovery (the validator) take part in the single traversal of each file: the visitors it
 * returns are merged with discovery's and run in the same walk. Called once per parsed file, with the `SourceFacts`
 * the walk will use to leave visitors out (absent for a file with syntax errors), so the hook may skip making a
 * visitor none of whose functions could act (see `mayMatch`).
 */
export interface ModuleHook {
  visitorsFor(file: string, ast: File, source: SourceFacts | undefined): RuleVisitor[];
  /**
   * With a `FactsCache`: replays what this hook's visitors did for `file` from its cached record instead of
   * walking it (its findings, under the role the file has now). Returns false when the record cannot stand for a
   * walk (no entry for this role, or an answer it depended on changed); the store then parses and walks the file.
   */
  restore?(file: string, record: FileRecord): boolean;
  /** With a `FactsCache`: called after `file`'s walk, to write what the hook's visitors did into its record. */
  walked?(file: string, record: FileRecord): void;
}

/**
 * One file's entry in a persistent cache, valid for the content whose SHA-1 is `hash`: discovery's facts
 * (`facts`) and, as one more field each, what other layers derive from the same content (the validator's
 * findings per role in `lint`). A layer that finds its field missing computes it and fills it in.
 */
export interface FileRecord {
  hash: string;
  facts?: CachedFacts;
  [field: string]: unknown;
}

/** `Loaded` in JSON form: the module's facts with its maps as entry lists, and its load problems. */
export interface CachedFacts {
  info: SerializedModuleInfo | undefined;
  problems: LoadProblem[];
}

/** `ModuleInfo` with `exports` and `locals` as `[name, binding]` lists (JSON has no maps). */
export type SerializedModuleInfo = Omit<ModuleInfo, 'exports' | 'locals'> & {
  exports: [string, ModuleInfo['exports'] extends Map<string, infer B> ? B : never][];
  locals: [string, ModuleInfo['locals'] extends Map<string, infer B> ? B : never][];
};

/**
 * A persistent per-file cache the store consults before parsing: `recordFor` returns the record of `file` for
 * the content `text` (a new empty one, replacing the old, when the content changed), which the store and its hook
 * read and fill. Keeping it between runs (and invalidating it when the tool or its options change) is the
 * owner's business.
 */
export interface FactsCache {
  recordFor(file: string, text: string): FileRecord;
}

/** `info` in its JSON form (a snapshot of its lists; the entries themselves are shared). */
export function serializeModuleInfo(info: ModuleInfo): SerializedModuleInfo {
  return { ...info, exports: [...info.exports], locals: [...info.locals] };
}

/** The `ModuleInfo` a `SerializedModuleInfo` stands for. */
export function reviveModuleInfo(info: SerializedModuleInfo): ModuleInfo {
  return { ...info, exports: new Map(info.exports), locals: new Map(info.locals) };
}

/** Caches parsed modules by absolute path. */
export class ModuleStore {
  readonly #cache = new Map<string, Loaded>();
  /** Files whose `#load` is under way (their walk may load other files, whose rules may ask about them). */
  readonly #loading = new Set<string>();
  /** What factory calls are linked through (factories.ts). */
  readonly #factoryModules = {
    load: (file: string) => this.load(file).info,
    resolve: (from: string, specifier: string) => resolveRelativeImport(this.fs, from, specifier),
  };
  #filesRead = 0;
  /** Set by the session owner before files are loaded; called for every parsed file. */
  hook: ModuleHook | undefined;
  /**
   * Keep each parsed tree in `Loaded.ast` (set before loading by whoever derives command shapes; off by default): all,
   * or those a predicate of the file and its content hash (with `hashSources`) picks. Steps and evaluators files are
   * never kept: their facts say all a shape needs of them. Trees not kept are parsed again on demand (`tree`).
   */
  keepAst: boolean | ((file: string, hash: string | undefined) => boolean) = false;
  /** Record each file's content hash in `Loaded.hash` (set before loading; command shapes compare it with a baseline's). */
  hashSources = false;
  readonly #trees = new Map<string, File | null>();
  readonly #hashes = new Map<string, string | null>();
  /** Set by the session owner before files are loaded: facts and findings of unchanged files come from it. */
  cache: FactsCache | undefined;
  #parsed = 0;

  constructor(
    readonly fs: FileSystem,
    readonly maxFileBytes: number = DEFAULT_MAX_FILE_BYTES,
  ) {}

  /** Number of source files read (and parsed) so far. */
  get filesRead(): number {
    return this.#filesRead;
  }

  /** Number of files parsed so far (with a `cache`, the files whose record could not be used). */
  get filesParsed(): number {
    return this.#parsed;
  }

  /** True when `file` was loaded already (its single traversal has run). */
  has(file: string): boolean {
    return this.#cache.has(file);
  }

  /**
   * Loads `file` (once). Never throws. A convention file's (workflow, steps, evaluators) values made by a factory call
   * come back as the definitions they make (factories.ts), linked from the facts of the modules it imports, which
   * are loaded for it; its cache record keeps the file's own facts.
   */
  load(file: string): Loaded {
    let loaded = this.#cache.get(file);
    if (!loaded) {
      // A file asked for while it loads (a rule of a module it imports asking about it): nothing known yet.
      if (this.#loading.has(file)) return { info: undefined, problems: [] };
      this.#loading.add(file);
      try {
        loaded = this.#load(file);
      } finally {
        this.#loading.delete(file);
      }
      this.#cache.set(file, loaded);
      if (loaded.info && classifyFile(file) !== null) {
        const own = loaded.info;
        loaded.info = linkFactoryCalls(own, this.#factoryModules);
        if (loaded.info !== own) loaded.factoryMade = factoryMadeIn(own, loaded.info);
      }
    }
    return loaded;
  }

  /**
   * The definitions that calls of factories (factories.ts) at the top level of `file` make, linked through its
   * relative imports: for a file of no convention role (a helper, a lib file), none is registered where it is made;
   * for a convention file, those its load linked (a workflow file's steps are not registered either). Empty for a
   * file that cannot be read.
   */
  factoryMadeDefinitions(file: string): Definition[] {
    if (classifyFile(file) !== null) return this.load(file).factoryMade ?? [];
    const info = this.load(file).info;
    if (!info) return [];
    const linked = linkFactoryCalls(info, this.#factoryModules);
    return linked === info ? [] : factoryMadeIn(info, linked);
  }

  /**
   * The parsed tree of `file`: the kept one, or the file read and parsed again (once; not walked, no hook runs).
   * Undefined when it cannot be read or parsed.
   */
  tree(file: string): File | undefined {
    const kept = this.load(file).ast;
    if (kept) return kept;
    let tree = this.#trees.get(file);
    if (tree === undefined) {
      const text = this.#read(file);
      tree = typeof text === 'string' ? (parseSource(text, file).ast ?? null) : null;
      this.#trees.set(file, tree);
    }
    return tree ?? undefined;
  }

  /**
   * The SHA-1 (base64url) of `file`'s text: the one recorded when it was loaded (`hashSources`), or the file read and
   * hashed (once), without parsing it. Undefined when it cannot be read.
   */
  contentHash(file: string): string | undefined {
    const loaded = this.#cache.get(file);
    if (loaded?.hash !== undefined) return loaded.hash;
    let hash = this.#hashes.get(file);
    if (hash === undefined) {
      const text = this.#read(file);
      hash = typeof text === 'string' ? digest('sha1', text, 'base64url') : null;
      this.#hashes.set(file, hash);
    }
    return hash ?? undefined;
  }

  /** Loads `file` and reports its problems to `diagnostics` (a sink drops repeats, so this may be called often). */
  loadReporting(file: string, diagnostics: Diagnostics): ModuleInfo | undefined {
    const { info, problems } = this.load(file);
    for (const p of problems) diagnostics.report<typeof p.ruleId>(p.ruleId, p.messageId as never, p.file, p.position, p.data);
    return info;
  }

  /**
   * Reads and walks `file` again with the hook's current visitors, for the rare file first loaded before anyone
   * knew it needed rules (a barrel that workflow code also imports). Keeps the cached facts.
   */
  revisit(file: string): void {
    const text = this.#read(file);
    if (typeof text !== 'string') return;
    const record = this.cache?.recordFor(file, text);
    if (record?.facts && this.hook?.restore?.(file, record) !== false) return;
    const { ast, errors } = parseSource(text, file);
    this.#parsed++;
    if (!ast) return;
    const source = sourceFacts(file, text, errors.length);
    this.#walk(file, ast, this.hook?.visitorsFor(file, ast, source) ?? [], source, []);
    if (record) this.hook?.walked?.(file, record);
  }

  #read(file: string): string | Loaded {
    try {
      const stat = this.fs.stat(file);
      if (stat.kind !== 'file')
        return { info: undefined, problems: [{ ruleId: 'fs/unreadable', messageId: 'notAFile', file, position: undefined, data: { file } }], missing: true };
      if (stat.size > this.maxFileBytes) {
        return {
          info: undefined,
          problems: [
            {
              ruleId: 'fs/file-too-large',
              messageId: 'tooLarge',
              file,
              position: undefined,
              data: { file, size: String(stat.size), max: String(this.maxFileBytes) },
            },
          ],
        };
      }
      const text = this.fs.readFile(file);
      this.#filesRead++;
      return text;
    } catch (error) {
      const code = errorCode(error);
      if (code === 'EOUTSIDE') return { info: undefined, problems: [], missing: true }; // the walk reports it (fs/outside-package)
      const loaded: Loaded = { info: undefined, problems: [{ ruleId: 'fs/unreadable', messageId: 'file', file, position: undefined, data: { file, code } }] };
      if (code === 'ENOENT' || code === 'ENOTDIR') loaded.missing = true;
      return loaded;
    }
  }

  #walk(file: string, ast: File, visitors: RuleVisitor[], source: SourceFacts | undefined, problems: LoadProblem[]): void {
    try {
      walk(ast, mergeVisitors(visitors, source));
    } catch (error) {
      // Only pathological input gets here (a tree too deep for the stack): a finding, never a crash.
      problems.push({ ruleId: 'parse/syntax-error', messageId: 'tooDeep', file, position: undefined, data: { file, reason: (error as Error).message } });
    }
  }

  #load(file: string): Loaded {
    const text = this.#read(file);
    if (typeof text !== 'string') return text;
    const record = this.cache?.recordFor(file, text);
    if (record?.facts && this.hook?.restore?.(file, record) !== false) {
      const { info, problems } = record.facts;
      return { info: info && reviveModuleInfo(info), problems };
    }
    const loaded = this.#parse(file, text);
    if (record) {
      record.facts = { info: loaded.info && serializeModuleInfo(loaded.info), problems: loaded.problems };
      this.hook?.walked?.(file, record);
    }
    return loaded;
  }

  #parse(file: string, text: string): Loaded {
    const { ast, errors } = parseSource(text, file);
    this.#parsed++;
    const problems: LoadProblem[] = errors.map((e) => ({
      ruleId: 'parse/syntax-error' as const,
      messageId: 'syntax' as const,
      file,
      position: e.position,
      data: { file, reason: e.message },
    }));
    if (!ast) return { info: undefined, problems };
    const info = analyzeModule(file, ast.program);
    const source = sourceFacts(file, text, errors.length);
    const hooked = this.hook?.visitorsFor(file, ast, source) ?? [];
    const own = moduleFactsVisitors(info, source);
    this.#walk(file, ast, [...own.visitors, ...hooked], source, problems);
    own.finish();
    const hash = this.hashSources ? digest('sha1', text, 'base64url') : undefined;
    const keep = typeof this.keepAst === 'function' ? this.keepAst(file, hash) : this.keepAst;
    const loaded: Loaded = keep && !ACTIVITY_ROLES.has(classifyFile(file) ?? '') ? { info, problems, ast } : { info, problems };
    if (hash !== undefined) loaded.hash = hash;
    return loaded;
  }
}

/**
 * What the walk may use to skip visitors and subtrees (`mergeVisitors`): only for a file that parsed without any
 * syntax error, since a recovered tree may hold declarations where the language allows none.
 */
function sourceFacts(file: string, text: string, syntaxErrors: number): SourceFacts | undefined {
  return syntaxErrors === 0 ? { text, typescript: isTypeScriptFile(file) } : undefined;
}

/** The definitions `linked` (a module's facts with its factory calls linked) has where `own` (its facts) has values. */
function factoryMadeIn(own: ModuleInfo, linked: ModuleInfo): Definition[] {
  const out: Definition[] = [];
  for (const [name, binding] of linked.locals) {
    if (binding.kind === 'definition' && own.locals.get(name)?.kind === 'value') out.push(binding.definition);
  }
  return out;
}
