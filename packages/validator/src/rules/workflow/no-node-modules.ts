/**
 * `workflow/no-node-modules` (package rule 12): workflow files, and every module they import (their own
 * helpers and their dependencies, resolved through a `skein-workflow-bundle` / `output-workflow-bundle`
 * export condition when one is offered), must not import Node built-ins (`node:*`, `fs`,
 * `child_process`, …): Temporal's workflow bundler refuses them. Steps and evaluators files are not
 * followed (they run in Node as activities). Reported once per offending import, with the shortest import
 * chain from a workflow file; an import inside a dependency is reported where the package imports that
 * dependency. The Node-only entries of `@skein/core` (`/hooks`, `/sdk/runtime`, `/temporal`) are reported the same
 * way: they serve steps, evaluators and hook files, and load Node modules.
 */
import * as path from 'node:path';
import type { ImportEdge, ModuleNode } from '../../graph/module-graph.js';
import { createRule } from '../../create-rule.js';
import { isActivityRole } from '../util/ast.js';

interface Visit {
  node: ModuleNode;
  /** Chain of files from a workflow file to this one. */
  chain: string[];
  /** Where the chain last left the package's own code: that file and the import that left it. */
  anchor: { file: string; edge: ImportEdge } | null;
}

/** Short display form of a path: relative to the root, or from `node_modules/` on for dependencies. */
function display(root: string, file: string): string {
  const i = file.lastIndexOf(`${path.sep}node_modules${path.sep}`);
  if (i >= 0) return file.slice(i + 1);
  return path.relative(root, file) || file;
}

function dependencyName(file: string): string {
  const i = file.lastIndexOf(`node_modules${path.sep}`);
  const parts = file.slice(i + 'node_modules/'.length).split(path.sep);
  return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
}

export const rule = createRule({
  meta: {
    id: 'workflow/no-node-modules',
    severity: 'error',
    docs: { description: 'Workflow code, and everything it imports, does not import Node built-in modules.', packageRule: 12 },
    messages: {
      ownImport: {
        message: 'Workflow code imports the Node built-in "{{module}}", which the workflow sandbox does not provide: {{chain}}.',
        hint: 'Move the code that needs "{{module}}" into a step (steps run in Node) and call the step from the workflow.',
      },
      nodeOnlyEntry: {
        message: 'Workflow code imports "{{module}}", which runs only in Node (steps, evaluators and hook files): {{chain}}.',
        hint: 'Use "{{module}}" in a step and call the step from the workflow; workflow code imports "@skein/core" itself.',
      },
      dependencyImport: {
        message: 'The dependency "{{dependency}}" imported by workflow code imports the Node built-in "{{module}}": {{chain}}.',
        hint: 'Call "{{dependency}}" from a step instead, or depend on a version that offers a "skein-workflow-bundle" export condition.',
      },
    },
  },
  check(context) {
    const root = context.manifest.root;
    const seen = new Set<string>();
    const queue: Visit[] = [];
    for (const entry of context.graph.entries) {
      const node = context.graph.get(entry);
      if (node && !seen.has(entry)) {
        seen.add(entry);
        queue.push({ node, chain: [display(root, entry)], anchor: null });
      }
    }
    for (let i = 0; i < queue.length; i++) {
      const { node, chain, anchor } = queue[i] as Visit;
      for (const edge of node.edges) {
        const r = edge.resolved;
        if (r.kind === 'node-only') {
          // Reported where the project's own code imports it (a dependency's import is reported at the dependency).
          const fullChain = [...chain, r.name].join(' → ');
          context.report({
            file: node.own || !anchor ? node.file : anchor.file,
            loc: node.own || !anchor ? edge : anchor.edge,
            messageId: 'nodeOnlyEntry',
            data: { module: r.name, chain: fullChain },
          });
          continue;
        }
        if (r.kind === 'builtin') {
          const fullChain = [...chain, r.name].join(' → ');
          if (node.own || !anchor) {
            context.report({ file: node.file, loc: edge, messageId: 'ownImport', data: { module: r.name, chain: fullChain } });
          } else {
            context.report({
              file: anchor.file,
              loc: anchor.edge,
              messageId: 'dependencyImport',
              data: { module: r.name, chain: fullChain, dependency: dependencyName(node.file) },
            });
          }
          continue;
        }
        if (r.kind !== 'file' || isActivityRole(r.role) || seen.has(r.path)) continue;
        const next = context.graph.get(r.path);
        if (!next) continue;
        seen.add(r.path);
        const nextAnchor = node.own && !next.own ? { file: node.file, edge } : anchor;
        queue.push({ node: next, chain: [...chain, display(root, r.path)], anchor: nextAnchor });
      }
    }
  },
});
