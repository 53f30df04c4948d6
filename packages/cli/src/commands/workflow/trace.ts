/** `skein workflow trace`: a run's trace tree as an indented tree with durations and status marks. */
import type { Command } from 'commander';
import { action, clientFrom, runTarget, type ClientFlags } from '../../client/common.js';
import { formatDuration, inert, note, out, outJson, paint, statusMark } from '../../client/output.js';

interface TraceFlags extends ClientFlags {
  run?: string;
}

/** The fields of a trace node the drawing reads (the worker's trace file format, version 1). */
export interface TraceNodeView {
  kind?: string;
  name?: string;
  status?: string;
  durationMs?: number | null;
  attempt?: number;
  error?: { name?: string; message?: string };
  children?: TraceNodeView[];
}

function label(node: TraceNodeView): string {
  const kind = inert(node.kind ?? 'node').replace('_', ' ');
  const parts = [`${statusMark(node.status ?? '')} ${inert(node.name) || '(unnamed)'}`, paint('dim', kind), formatDuration(node.durationMs)];
  if (node.attempt && node.attempt > 1) parts.push(paint('yellow', `attempt ${inert(node.attempt)}`));
  if (node.status === 'failed' && node.error?.message) parts.push(paint('red', `${inert(node.error.name ?? 'Error')}: ${inert(node.error.message)}`));
  return parts.join('  ');
}

/**
 * Draws a trace tree, one node a line, children under `├─`/`└─` branches:
 * `✔ summarize  workflow  186 ms` / `├─ ✔ countWords  step  12 ms` / …
 */
export function drawTree(root: TraceNodeView): string {
  const lines: string[] = [label(root)];
  const walk = (node: TraceNodeView, prefix: string) => {
    const children = node.children ?? [];
    children.forEach((child, i) => {
      const last = i === children.length - 1;
      lines.push(`${prefix}${paint('dim', last ? '└─ ' : '├─ ')}${label(child)}`);
      walk(child, prefix + (last ? '   ' : paint('dim', '│  ')));
    });
  };
  walk(root, '');
  return lines.join('\n') + '\n';
}

/** Registers `trace` on the `workflow` command. */
export function registerTraceCommand(workflow: Command): void {
  runTarget(workflow.command('trace'))
    .description("draw a closed run's trace: workflow, child workflows, steps and evaluators with durations")
    .action(
      action(async (workflowId: string, flags: TraceFlags) => {
        const t = await clientFrom(flags).traceLog(workflowId, { runId: flags.run });
        if (flags.json) return outJson(t);
        const tree = (t.data as { tree?: TraceNodeView } | null)?.tree;
        if (!tree) return out(paint('dim', `the trace at ${inert(t.location)} holds no tree\n`));
        out(drawTree(tree));
        note(`${t.source} trace: ${t.location}`);
      }),
    );
}
