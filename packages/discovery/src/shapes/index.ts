/**
 * The command shapes of a project's workflows (see types.ts): derived from the trees the session's store kept while
 * `discover()` read the project, so no file is parsed twice.
 */
import type * as t from '@babel/types';
import { discover } from '../discover.js';
import { positionOf, type Position } from '../finding.js';
import { createSession, type AnalysisSession } from '../session.js';
import { keyName, staticStringOf } from '../static-values.js';
import type { Manifest, WorkflowEntry } from '../types.js';
import { ShapeWalker, type DeriveContext } from './derive.js';
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
  session.store.keepAst = true;
  const manifest = await discover(projectDir, { session });
  return shapesOf(session, manifest);
}

/**
 * The shapes of the workflows of a manifest `discover()` produced with `session`. The session's store must have had
 * `keepAst` set before `discover()` ran, or each workflow's shape is a single `partial` node.
 */
export function shapesOf(session: AnalysisSession, manifest: Manifest): ShapeSet {
  const workflows: Record<string, WorkflowShape> = {};
  for (const entry of manifest.workflows) {
    if (workflows[entry.name]) continue; // a duplicate name is its own finding; the first registration wins
    workflows[entry.name] = shapeOfWorkflow(session, manifest.root, entry);
  }
  return { format: SHAPES_FORMAT, project: projectName(session, manifest.root), workflows };
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

function shapeOfWorkflow(session: AnalysisSession, root: string, entry: WorkflowEntry): WorkflowShape {
  const ctx: DeriveContext = { store: session.store, root, workflowName: entry.name, handlers: {}, partial: [], stack: [] };
  const walker = new ShapeWalker(ctx);
  const scope = walker.moduleScope(entry.file);
  const fileRel = walker.loc({ file: entry.file } as never, { loc: { start: { line: entry.line, column: entry.column - 1 } } } as never).file;
  const at = { file: fileRel, line: entry.line, column: entry.column };
  let shape: ShapeNode;
  let versioningBehavior: WorkflowShape['versioningBehavior'] = 'pinned';
  const call = scope && findCall(scope.program, { line: entry.line, column: entry.column });
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
      shape = callee.kind === 'function' ? walker.callFunction(callee.fn, callee.scope, [], true) : walker.partial(scope, fn, `a workflow fn the analysis cannot follow (${fn.name})`);
    } else {
      shape = walker.partial(scope, fn ?? call, fn ? 'a workflow fn the analysis cannot follow' : `a workflow whose fn is supplied by ${call.callee.type === 'Identifier' ? call.callee.name : 'a wrapper'}`);
    }
  }
  ctx.partial.sort((a, b) => a.at.file.localeCompare(b.at.file) || a.at.line - b.at.line || a.at.column - b.at.column);
  return { versioningBehavior, file: fileRel, shape, handlers: ctx.handlers, partial: ctx.partial };
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
