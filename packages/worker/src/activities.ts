import { activityType, runActivity } from '@skein/core';
import type { LoadedProject } from './load.js';

/** A Temporal activity implementation: one JSON input, one JSON output. */
export type ActivityImplementation = (input: unknown) => Promise<unknown>;

/**
 * The activities the worker registers: for every workflow W, its own steps and evaluators and every shared
 * activity, each as `W#<name>` (SPEC rules 6 and 10). Each runs the definition with its schemas (`runActivity`).
 */
export function buildActivities(project: LoadedProject): Record<string, ActivityImplementation> {
  const out: Record<string, ActivityImplementation> = {};
  for (const wf of project.workflows) {
    for (const act of [...project.shared, ...(project.scoped.get(wf.def.name) ?? [])]) {
      const def = act.def;
      out[activityType(wf.def.name, def.name)] = (input) => runActivity(def, input);
    }
  }
  return out;
}
