/**
 * `steps/out-of-scope` (package rule 10): a workflow calls its own steps and evaluators (the steps and evaluators
 * files of its folder) and shared ones, never another workflow's. A workflow-scoped activity is registered as
 * `<its workflow>#<name>`, and a workflow schedules its steps under its own name, so a step imported from another
 * workflow's folder names an activity type no worker registers: every run fails at that call
 * (`ActivityNotRegistered`). Followed from each workflow file through the project's own workflow code (helpers in
 * other files included); reported at the import, once per importing file and specifier.
 */
import * as path from 'node:path';
import type { ModuleNode } from '../../graph/module-graph.js';
import { createRule } from '../../create-rule.js';
import { sourceStem } from '@skein/discovery';
import { isActivityRole } from '../util/ast.js';

/**
 * True when `file` (a steps or evaluators file) is one of the workflow's in `workflowDir`: `steps.*`, `evaluators.*`,
 * or any file below its `steps/` or `evaluators/` folder (folders nested in them included).
 */
function ownActivityFile(workflowDir: string, file: string): boolean {
  if (path.dirname(file) === workflowDir) return true;
  return [path.join(workflowDir, 'steps'), path.join(workflowDir, 'evaluators')].some((dir) => file.startsWith(dir + path.sep));
}

/**
 * The folder whose workflow a steps or evaluators file belongs to: its own folder for `steps.*`/`evaluators.*`, else
 * the folder holding the nearest `steps/` or `evaluators/` folder it lies below, inside `root`.
 */
function ownerFolder(file: string, root: string): string {
  const dir = path.dirname(file);
  const stem = sourceStem(path.basename(file));
  if (stem === 'steps' || stem === 'evaluators') return dir;
  for (let up = dir; up.startsWith(root + path.sep); up = path.dirname(up)) {
    const name = path.basename(up);
    if (name === 'steps' || name === 'evaluators') return path.dirname(up);
  }
  return dir;
}

export const rule = createRule({
  meta: {
    id: 'steps/out-of-scope',
    severity: 'error',
    docs: {
      description: "A workflow calls its own steps and evaluators and shared ones, never another workflow's.",
      packageRule: 10,
    },
    messages: {
      otherWorkflow: {
        message:
          'Workflow `{{workflow}}` imports "{{specifier}}", the {{kind}} of another workflow ({{file}}): its activities are registered as `<that workflow>#<name>`, so a call from `{{workflow}}` fails with ActivityNotRegistered.',
        hint: 'Move what both workflows call to a shared folder (`shared/steps/`, `shared/evaluators/`), or give `{{workflow}}` its own.',
      },
      noWorkflow: {
        message:
          'Workflow `{{workflow}}` imports "{{specifier}}", {{kind}} of the folder {{folder}}, which holds no workflow: they are never registered, so a call fails with ActivityNotRegistered.',
        hint: 'Shared {{kind}} live in a folder named exactly `shared/{{kind}}/` (any depth below it); or move them beside the workflow that calls them.',
      },
    },
  },
  check(context) {
    const root = context.manifest.root;
    const reported = new Set<string>();
    const workflowFolders = new Set(context.manifest.workflows.map((w) => path.dirname(w.file)));
    for (const workflow of context.manifest.workflows) {
      const start = context.graph.get(workflow.file);
      if (!start) continue;
      const workflowDir = path.dirname(workflow.file);
      const seen = new Set<string>([start.file]);
      const queue: ModuleNode[] = [start];
      for (let i = 0; i < queue.length; i++) {
        const node = queue[i] as ModuleNode;
        for (const edge of node.edges) {
          const r = edge.resolved;
          if (r.kind !== 'file') continue;
          if (r.role === 'steps' || r.role === 'evaluators') {
            const key = `${node.file}\0${edge.specifier}`;
            if (ownActivityFile(workflowDir, r.path) || reported.has(key)) continue;
            reported.add(key);
            const owner = ownerFolder(r.path, root);
            if (!workflowFolders.has(owner)) {
              const folder = `${path.relative(root, owner) || owner}/`;
              const kind = r.role === 'steps' ? 'steps' : 'evaluators';
              context.report({
                file: node.file,
                loc: edge,
                messageId: 'noWorkflow',
                data: { workflow: workflow.name, specifier: edge.specifier, kind, folder },
              });
              continue;
            }
            context.report({
              file: node.file,
              loc: edge,
              messageId: 'otherWorkflow',
              data: {
                workflow: workflow.name,
                specifier: edge.specifier,
                kind: r.role === 'steps' ? 'steps' : 'evaluators',
                file: path.relative(root, r.path) || r.path,
              },
            });
            continue;
          }
          // Another workflow file is a child workflow: its steps are its own.
          if (isActivityRole(r.role) || r.role === 'workflow' || seen.has(r.path)) continue;
          const next = context.graph.get(r.path);
          // Dependencies never import a project's steps files: only the project's own workflow code is followed.
          if (!next?.own) continue;
          seen.add(r.path);
          queue.push(next);
        }
      }
    }
  },
});
