/**
 * Running a project's `.ts` files in the worker's Node process (issue "TypeScript at run time"): Node 24 strips
 * the types itself; this adds the one thing it lacks, TypeScript's `.js`-suffixed relative imports
 * (`import { x } from './steps.js'` where only `steps.ts` exists, as `moduleResolution: "nodenext"` requires).
 * Self-contained (Node built-ins only) so it loads before anything else, from source or from `dist/`.
 */
import { existsSync } from 'node:fs';
import nodeModule, { type ResolveHookContext, type ResolveFnOutput } from 'node:module';
import { fileURLToPath } from 'node:url';

// The Node features the worker needs are read where used (`moduleHooks`), so that an older Node fails with a
// sentence naming the version, not with a `SyntaxError` about a missing export while the modules link (a named
// `import { registerHooks } from 'node:module'` fails before any code could check). They live here because this
// module must stay self-contained.

/** The Node version the worker's packages declare (`engines.node`). */
export const REQUIRED_NODE = '>=24.15.0';

/**
 * Node's synchronous in-thread module hooks (`module.registerHooks`, Node ≥ 22.15 and ≥ 23.5).
 *
 * @param purpose what the caller uses them for, named in the error (e.g. "running a project's .ts files").
 * @throws Error "Skein's worker needs Node >=24.15.0 for <purpose> (module.registerHooks); this process runs Node
 *   <version>" when this Node lacks them.
 */
export function moduleHooks(purpose: string): typeof nodeModule.registerHooks {
  const registerHooks = (nodeModule as Partial<typeof nodeModule>).registerHooks;
  if (typeof registerHooks !== 'function') {
    throw new Error(`Skein's worker needs Node ${REQUIRED_NODE} for ${purpose} (module.registerHooks); this process runs Node ${process.versions.node}`);
  }
  return registerHooks;
}

/** A TypeScript source extension for each JavaScript output extension, as `tsc` maps them. */
const SOURCE_EXTENSIONS: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };

const TYPESCRIPT_PARENT = /\.[cm]?ts$/;

let registered = false;

/**
 * The TypeScript source a failed relative import of a `.ts` file may mean: `./x.js` → `./x.ts`,
 * `./x.mjs` → `./x.mts`, `./x.cjs` → `./x.cts`. Undefined when the specifier is not relative, has another
 * extension, or the importer is not a TypeScript file.
 */
export function typeScriptSourceFor(specifier: string, parentURL: string | undefined): string | undefined {
  if (!parentURL || !TYPESCRIPT_PARENT.test(new URL(parentURL).pathname)) return undefined;
  if (!(specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('file:'))) return undefined;
  const match = /\.[cm]?js$/.exec(specifier);
  if (!match) return undefined;
  return specifier.slice(0, match.index) + SOURCE_EXTENSIONS[match[0]];
}

function resolve(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput,
): ResolveFnOutput {
  const source = typeScriptSourceFor(specifier, context.parentURL);
  // The written .js file wins when it exists (as in TypeScript's own resolution); otherwise its .ts source.
  // Checked up front so the common case costs one stat, not a thrown ERR_MODULE_NOT_FOUND.
  if (source !== undefined && context.parentURL) {
    const written = fileURLToPath(new URL(specifier, context.parentURL));
    if (!existsSync(written) && existsSync(fileURLToPath(new URL(source, context.parentURL)))) return nextResolve(source, context);
  }
  return nextResolve(specifier, context);
}

/**
 * Lets `.ts`/`.mts`/`.cts` files of the project import each other with `.js`/`.mjs`/`.cjs` suffixes, by a
 * synchronous, in-thread resolve hook (`module.registerHooks`) that only acts when the written file does not
 * exist and its TypeScript source does. Type stripping itself is Node's (on by default since Node 23.6). Idempotent; process-wide.
 *
 * @throws Error naming the Node version when this Node has no `module.registerHooks` (`moduleHooks`).
 */
export function enableTypeScriptSources(): void {
  if (registered) return;
  moduleHooks("running a project's .ts files")({ resolve });
  registered = true;
}
