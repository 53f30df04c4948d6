/**
 * The command shapes of a project's workflows (see types.ts): derived from the trees the session's store kept while
 * `discover()` read the project, so no file is parsed twice.
 */
import type * as t from '@babel/types';
import { resolve, sep } from 'node:path';
import { discover } from '../discover.js';
import { positionOf, type Position } from '../finding.js';
import { createSession, type AnalysisSession } from '../session.js';
import { keyName, staticStringOf } from '../static-values.js';
import type { Manifest, WorkflowEntry } from '../types.js';
import { deriveMemo, ShapeWalker, type DeriveContext } from './derive.js';
import { SHAPES_FORMAT, type ShapeNode, type ShapeSet, type WorkflowShape } from './types.js';

export * from './types.js';

/**
 * Derives the shapes of every workflow of a project or package directory (as `discover()` finds them).
 * @param projectDir the project root (absolute or relative to the working directory)
 * @returns a `ShapeSet` keyed by workflow name; a workflow whose file cannot be read or parsed gets a `partial` shape
 * @throws only what `discover()` throws (never for bad code: unreadable constructs become `partial` nodes)
 */
export async function deriveCommandShapes(projectDir: string): Promise<ShapeSet> {
  const session = createSession();
  prepareForShapes(session, projectDir);
  const manifest = await discover(projectDir, { session });
  return shapesOf(session, manifest);
}

/**
 * The shapes of the workflows of a manifest `discover()` produced with `session`. Files are parsed again where the
 * store did not keep their trees (`keepAst`). With `reuse` (a baseline's shapes) and the store's `hashSources` set
 * before `discover()` ran, a workflow whose recorded sources all have the same content now takes the recorded shape
 * as is, without a walk.
 */
export function shapesOf(session: AnalysisSession, manifest: Manifest, reuse?: ShapeSet): ShapeSet {
  const workflows: Record<string, WorkflowShape> = {};
  const memo = deriveMemo();
  for (const entry of manifest.workflows) {
    if (workflows[entry.name]) continue; // a duplicate name is its own finding; the first registration wins
    const old = reuse?.workflows[entry.name];
    workflows[entry.name] = old && unchanged(session, manifest.root, entry, old) ? old : shapeOfWorkflow(session, manifest.root, entry, memo);
  }
  return { format: SHAPES_FORMAT, project: projectName(session, manifest.root), workflows };
}

/**
 * Prepares `session` (before `discover()`) for `shapesOf(session, manifest, baseline)`: content hashes recorded, and
 * the trees kept of every file, or with a `baseline` only of files whose content differs from every source it
 * recorded (the files whose workflows are walked again), so unchanged files are neither kept nor parsed twice.
 */
export function prepareForShapes(session: AnalysisSession, root: string, baseline?: ShapeSet): void {
  session.store.hashSources = true;
  if (!baseline) {
    session.store.keepAst = true;
    return;
  }
  // File → the content hash the baseline recorded for it ('' when two of its workflows recorded different ones, which
  // one snapshot never does: the tree is then kept). Looked up by the file alone: a set of `file + hash` keys, built
  // and probed for the 4,001 files of bench/versioning, took 4-5 ms against 1-1.5 ms for this map.
  const recorded = new Map<string, string>();
  for (const w of Object.values(baseline.workflows))
    for (const [rel, hash] of Object.entries(w.sources ?? {})) {
      const file = under(root, rel);
      const known = recorded.get(file);
      recorded.set(file, known === undefined || known === hash ? hash : '');
    }
  session.store.keepAst = (file, hash) => hash === undefined || recorded.get(file) !== hash;
}

/** `root` joined with a recorded relative path: as strings for a plain POSIX path, else `path.resolve`. */
function under(root: string, rel: string): string {
  return sep === '/' && !rel.startsWith('.') && !rel.includes('/.') && !rel.startsWith('/') ? `${root === '/' ? '' : root}/${rel}` : resolve(root, rel);
}

/** Whether every source a recorded shape was derived from has the same content now (and the workflow the same file). */
function unchanged(session: AnalysisSession, root: string, entry: WorkflowEntry, old: WorkflowShape): boolean {
  if (!old.sources) return false;
  const files = Object.entries(old.sources);
  if (files.length === 0) return false;
  for (const [rel, hash] of files) {
    if (session.store.contentHash(under(root, rel)) !== hash) return false;
  }
  return resolve(root, old.file) === entry.file;
}

/** The `name` of the package.json at `root`, or null. */
function projectName(session: AnalysisSession, root: string): string | null {
  try {
    const name = (JSON.parse(session.fs.readFile(`${root}/package.json`)) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

function shapeOfWorkflow(session: AnalysisSession, root: string, entry: WorkflowEntry, memo: ReturnType<typeof deriveMemo>): WorkflowShape {
  const ctx: DeriveContext = { store: session.store, root, workflowName: entry.name, handlers: {}, partial: [], stack: [], memo, files: new Set() };
  const walker = new ShapeWalker(ctx);
  const scope = walker.moduleScope(entry.file);
  const fileRel = walker.loc({ file: entry.file } as never, { loc: { start: { line: entry.line, column: entry.column - 1 } } } as never).file;
  const at = { file: fileRel, line: entry.line, column: entry.column };
  let shape: ShapeNode;
  let versioningBehavior: WorkflowShape['versioningBehavior'] = 'pinned';
  const program = scope?.tree();
  const call = program && findCall(program, { line: entry.line, column: entry.column });
  const config = call?.arguments[0];
  if (!scope || !call || config?.type !== 'ObjectExpression') {
    shape = { kind: 'partial', construct: 'a workflow definition the analysis cannot read', at };
    ctx.partial.push({ construct: shape.construct, at });
  } else {
    let fn: t.Node | undefined;
    for (const p of config.properties) {
      const key = p.type === 'SpreadElement' ? undefined : keyName(p.key, p.computed);
      if (key === 'fn') fn = p.type === 'ObjectMethod' ? p : p.type === 'ObjectProperty' ? p.value : undefined;
      if (key === 'versioningBehavior' && p.type === 'ObjectProperty') {
        const v = staticStringOf(p.value);
        versioningBehavior = v === 'pinned' || v === 'auto-upgrade' ? v : 'unknown';
      }
      if (p.type === 'SpreadElement') versioningBehavior = versioningBehavior === 'pinned' ? 'unknown' : versioningBehavior;
    }
    if (fn && (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression' || fn.type === 'ObjectMethod')) {
      shape = walker.callFunction(fn, scope, [], true);
    } else if (fn?.type === 'Identifier') {
      const callee = walker.resolveCallee(fn, scope);
      shape =
        callee.kind === 'function'
          ? walker.callFunction(callee.fn, callee.scope, [], true)
          : walker.partial(scope, fn, `a workflow fn the analysis cannot follow (${fn.name})`);
    } else {
      shape = walker.partial(
        scope,
        fn ?? call,
        fn
          ? 'a workflow fn the analysis cannot follow'
          : `a workflow whose fn is supplied by ${call.callee.type === 'Identifier' ? call.callee.name : 'a wrapper'}`,
      );
    }
  }
  ctx.partial.sort((a, b) => a.at.file.localeCompare(b.at.file) || a.at.line - b.at.line || a.at.column - b.at.column);
  const sources: Record<string, string> = {};
  for (const file of [...ctx.files].sort()) {
    const hash = session.store.contentHash(file);
    if (hash !== undefined) sources[walker.loc({ file } as never, { loc: { start: { line: 1, column: 0 } } } as never).file] = hash;
  }
  return { versioningBehavior, file: fileRel, shape, handlers: ctx.handlers, partial: ctx.partial, sources };
}

/** The call expression starting at `position` (the definition's position as module-info.ts records it). */
function findCall(program: t.Program, position: Position): t.CallExpression | undefined {
  let found: t.CallExpression | undefined;
  const visit = (node: t.Node): void => {
    if (found) return;
    const loc = node.loc;
    if (!loc || loc.start.line > position.line || loc.end.line < position.line) return;
    if (node.type === 'CallExpression') {
      const p = positionOf(node);
      if (p.line === position.line && p.column === position.column) {
        found = node;
        return;
      }
    }
    for (const key in node) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      const value = (node as unknown as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (const v of value) if (v && typeof (v as t.Node).type === 'string') visit(v as t.Node);
      } else if (value && typeof (value as t.Node).type === 'string') visit(value as t.Node);
    }
  };
  for (const stmt of program.body) visit(stmt);
  return found;
}
