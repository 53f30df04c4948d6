import { fileURLToPath } from 'node:url';
import { moduleHooks } from '../host/typescript/resolve-hook.js';
import { sha1 } from './file-digests.js';

/** The files the modules imported while recording resolved to, who imported whom, and the content each was loaded from. */
export interface ModuleGraph {
  /** Real path of an importing file → real paths of the files it imported. */
  edges: Map<string, Set<string>>;
  /** Real path → SHA-1 of the source it was loaded from (absent when the loader did not expose the source). */
  sources: Map<string, string>;
}

/**
 * Records the module graph of what is imported (`import`, `import()`, `require`) until `stop()`, by
 * synchronous in-thread module hooks (`module.registerHooks`): each resolution of a `file:` module from a
 * `file:` module is an edge, each load's source is hashed. Modules loaded before recording started are
 * not traversed again (Node links each module once): their content must be covered some other way.
 *
 * @throws Error naming the Node version when this Node has no `module.registerHooks` (`moduleHooks`).
 */
export function recordModuleGraph(): { graph: ModuleGraph; stop(): void } {
  const graph: ModuleGraph = { edges: new Map(), sources: new Map() };
  const hooks = moduleHooks('recording the modules a project imports')({
    resolve(specifier, context, nextResolve) {
      const out = nextResolve(specifier, context);
      if (context.parentURL?.startsWith('file:') && out.url.startsWith('file:')) {
        const from = fileURLToPath(context.parentURL);
        let to = graph.edges.get(from);
        if (!to) graph.edges.set(from, (to = new Set()));
        to.add(fileURLToPath(out.url));
      }
      return out;
    },
    load(url, context, nextLoad) {
      const out = nextLoad(url, context);
      if (url.startsWith('file:') && out.source != null) {
        const source = out.source;
        graph.sources.set(fileURLToPath(url), sha1(typeof source === 'string' ? source : Buffer.from(source as Uint8Array)));
      }
      return out;
    },
  });
  return { graph, stop: () => hooks.deregister() };
}

/** Every file reachable from `roots` through `graph` (the roots included), sorted. */
export function closureOf(graph: ModuleGraph, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const next of graph.edges.get(file) ?? []) stack.push(next);
  }
  return [...seen].sort();
}
