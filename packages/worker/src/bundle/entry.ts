import type { LoadedWorkflow } from '../load.js';

/**
 * Source of the generated module the workflow bundle is built from: one export per workflow name and alias
 * (the Temporal workflow types), plus `$catalog`. Every import is an absolute path. `settings` (the trace
 * directory) are compiled in, so they are the same for every execution of this bundle.
 */
export function workflowEntrySource(workflows: LoadedWorkflow[], coreWorkflowEntry: string, settings: { traceDir?: string } = {}): string {
  const lines = [
    `import { workflowFunction, catalogWorkflow, configureBundle } from ${JSON.stringify(coreWorkflowEntry)};`,
    `configureBundle(${JSON.stringify(settings)});`,
  ];
  const exported = new Set<string>();
  workflows.forEach((wf, i) => {
    const local = `wf${i}`;
    const binding = wf.binding === 'default' ? local : `{ ${wf.binding} as ${local} }`;
    lines.push(`import ${binding} from ${JSON.stringify(wf.entry.file)};`);
    lines.push(`export const ${wf.facts.name} = workflowFunction(${local});`);
    exported.add(wf.facts.name);
  });
  for (const wf of workflows) {
    for (const alias of wf.facts.aliases) {
      if (exported.has(alias)) continue;
      lines.push(`export const ${alias} = ${wf.facts.name};`);
      exported.add(alias);
    }
  }
  lines.push('export { catalogWorkflow as $catalog };');
  return lines.join('\n') + '\n';
}
