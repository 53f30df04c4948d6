/**
 * The Node features the worker needs beyond the ones every supported Node has, each read where it is used so that an
 * older Node fails with a sentence naming the version, not with a `SyntaxError` about a missing export while the
 * modules link (a named `import { registerHooks } from 'node:module'` fails before any code could check).
 * Node built-ins only, so it loads before anything else.
 */
import nodeModule from 'node:module';

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
