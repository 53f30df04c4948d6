import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { definitionOf, type ActivityDefinition, type WorkflowDefinition } from '@skein/core';
import type { ActivityEntry, Manifest, SharedActivityEntry, WorkflowEntry } from '@skein/discovery';
import { WorkerStartupError } from './errors.js';
import { describeTypeScriptLoadError } from './typescript/load-error.js';

/** A discovered workflow with the definition its module exports at runtime. */
export interface LoadedWorkflow {
  entry: WorkflowEntry;
  def: WorkflowDefinition;
  /** The binding of `entry.file` that holds the definition (`default` or a named export). */
  binding: string;
}

/** A discovered step or evaluator with its runtime definition. */
export interface LoadedActivity {
  entry: ActivityEntry;
  def: ActivityDefinition;
}

/** Everything the worker registers, keyed the way it is registered. */
export interface LoadedProject {
  manifest: Manifest;
  workflows: LoadedWorkflow[];
  /** Workflow-scoped activities per workflow name. */
  scoped: Map<string, LoadedActivity[]>;
  /** Shared activities after SPEC rule 7's namespace resolution (discovery decides the winner). */
  shared: LoadedActivity[];
  /** Real path of every activity file → its activities, for the workflow bundle's stub loader. */
  activityFiles: Map<string, LoadedActivity[]>;
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (err) {
    const e = err as Error;
    throw new WorkerStartupError(`Cannot load ${file}: ${describeTypeScriptLoadError(e) ?? e.message.split('\n')[0]}`, e.stack);
  }
}

/**
 * Imports the workflow and activity modules the manifest names (the worker runs package code; discovery
 * never does) and pairs each discovered entry with its runtime definition.
 * @throws WorkerStartupError when a module fails to load or a definition disagrees with what discovery read.
 */
export async function loadProject(manifest: Manifest): Promise<LoadedProject> {
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const load = (file: string) => {
    let m = modules.get(file);
    if (!m) modules.set(file, (m = importModule(file)));
    return m;
  };
  const activityFiles = new Map<string, LoadedActivity[]>();
  const loadActivity = async (entry: ActivityEntry): Promise<LoadedActivity> => {
    const mod = await load(entry.file);
    const def = definitionOf(mod[entry.exportName]);
    if (!def || def.kind === 'workflow' || def.name !== entry.name) {
      throw new WorkerStartupError(
        `${entry.file}: export "${entry.exportName}" should be ${entry.kind} "${entry.name}" (as read statically) but the module defines ${def ? `${def.kind} "${def.name}"` : 'no step or evaluator'} there`,
      );
    }
    const loaded = { entry, def: def as ActivityDefinition };
    const real = realpathSync(entry.file);
    const list = activityFiles.get(real) ?? [];
    if (!list.some((a) => a.entry.exportName === entry.exportName)) list.push(loaded);
    activityFiles.set(real, list);
    return loaded;
  };

  const workflows: LoadedWorkflow[] = [];
  const scoped = new Map<string, LoadedActivity[]>();
  for (const entry of manifest.workflows) {
    const mod = await load(entry.file);
    const found = Object.entries(mod).find(([, v]) => {
      const d = definitionOf(v);
      return d?.kind === 'workflow' && d.name === entry.name;
    });
    if (!found) {
      throw new WorkerStartupError(`${entry.file}: no export defines workflow "${entry.name}" (as read statically)`);
    }
    workflows.push({ entry, def: definitionOf(found[1]) as WorkflowDefinition, binding: found[0] });
    scoped.set(entry.name, await Promise.all(entry.activities.map(loadActivity)));
  }
  const shared = await Promise.all(manifest.sharedActivities.map((s: SharedActivityEntry) => loadActivity(s)));
  return { manifest, workflows, scoped, shared, activityFiles };
}
