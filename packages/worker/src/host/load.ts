import { realpathSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { definitionOf, type ActivityDefinition, type Schema, type WorkflowDefinition } from '@skein/core';
import type { ActivityEntry, Manifest, WorkflowEntry } from '@skein/discovery';
import { z } from 'zod';
import { scheduleTimesProblems } from '@skein/settings';
import { sha1, type FileDigests } from '../cache/file-digests.js';
import { FactsCache, type FactsEntry } from '../cache/facts-cache.js';
import { closureOf, recordModuleGraph, type ModuleGraph } from '../cache/module-graph.js';
import { toolFingerprint } from '../cache/tool-fingerprint.js';
import { WorkerStartupError } from '../check/errors.js';
import { describeLoadFailure } from './typescript/load-error.js';

/** What the worker needs to know of a workflow's definition beyond what discovery read (JSON Schemas from its zod schemas). */
export interface WorkflowFacts {
  name: string;
  aliases: string[];
  description: string | null;
  inputSchema: object | null;
  outputSchema: object | null;
  /** The schedules the workflow declares, checked at load (cron entries as a list). */
  schedules: DeclaredSchedule[];
}

/** A schedule a workflow declares (`workflow({ schedules })`), as the catalog document carries it. */
export interface DeclaredSchedule {
  id: string;
  cron?: string[];
  every?: string;
  timezone?: string;
  input: unknown;
}

/**
 * The declared schedules of a definition, each checked: its times (`scheduleTimesProblems`) and its input against
 * the workflow's input schema.
 * @throws WorkerStartupError naming the workflow, the schedule and each problem.
 */
export function declaredSchedules(def: WorkflowDefinition): DeclaredSchedule[] {
  return (def.schedules ?? []).map((s) => {
    const cron = s.cron === undefined ? undefined : Array.isArray(s.cron) ? s.cron : [s.cron];
    const problems = scheduleTimesProblems({ cron, every: s.every, timezone: s.timezone }).map((p) => `${p.field || 'spec'}: ${p.message}`);
    const input = s.input === undefined ? null : s.input;
    const checked = def.inputSchema?.safeParse(input);
    if (checked && !checked.success) problems.push(...checked.error.issues.map((i) => `input${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`));
    if (problems.length) throw new WorkerStartupError(`workflow "${def.name}", schedule "${s.id}": ${problems.join('; ')}`);
    return { id: s.id, ...(cron ? { cron } : {}), ...(s.every ? { every: s.every } : {}), ...(s.timezone ? { timezone: s.timezone } : {}), input };
  });
}

/** What the worker needs to know of a step's or evaluator's definition to register and stub it. */
export interface ActivityFacts {
  name: string;
  kind: 'step' | 'evaluator';
  /** Temporal activity options the definition sets (compiled into the workflow bundle's stubs). */
  activityOptions?: unknown;
  /** The definition sets `options.disableTrace`: its calls are left out of traces. */
  disableTrace?: true;
}

/** A discovered workflow with the facts of its runtime definition. */
export interface LoadedWorkflow {
  entry: WorkflowEntry;
  facts: WorkflowFacts;
  /** The binding of `entry.file` that holds the definition (`default` or a named export). */
  binding: string;
}

/** A discovered step or evaluator with the facts of its runtime definition. */
export interface LoadedActivity {
  entry: ActivityEntry;
  facts: ActivityFacts;
}

/** Everything the worker registers, keyed the way it is registered. */
export interface LoadedProject {
  manifest: Manifest;
  workflows: LoadedWorkflow[];
  /** Workflow-scoped activities per workflow name. */
  scoped: Map<string, LoadedActivity[]>;
  /** Shared activities after the one namespace of names is resolved (discovery decides the winner). */
  shared: LoadedActivity[];
  /** Real path of every activity file → its activities, for the workflow bundle's stub loader. */
  activityFiles: Map<string, LoadedActivity[]>;
  /** The runtime definitions: imported at load, or on an activity's first call when its facts came from the cache. */
  definitions: ActivityDefinitions;
  /** How many workflows' and shared activities' facts came from importing their modules, and how many from the cache. */
  counts: { imported: number; cached: number };
  /** Why the facts cache was not written (the project still loads), for a warning. */
  storeError?: Error;
}

/**
 * The JSON Schema of a workflow's input (`io: 'input'`: what a caller sends, so a field with a default is optional)
 * or output (`io: 'output'`: what the run returns, defaults applied). Null without a schema or when zod cannot
 * represent it.
 */
function jsonSchema(schema: Schema | undefined, io: 'input' | 'output'): object | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io });
  } catch {
    return null;
  }
}

/**
 * The step and evaluator definitions of a project's modules, each module imported once (on first use) and
 * checked against what discovery read.
 */
export class ActivityDefinitions {
  private readonly modules = new Map<string, Promise<Record<string, unknown>>>();
  /**
   * Imports that failed, by file: which attempt, and the file's stat then. Node keeps a module that threw under its
   * URL, so the next attempt asks for `?attempt=<n>`.
   */
  private readonly failures = new Map<string, { attempt: number; stamp: string }>();

  /**
   * The module at `file`, imported once. An import that failed fails again, without running the file again, until
   * the file changes (size, modification time or inode): the next call then imports it anew (`skein dev` keeps a
   * worker serving while an edit is refused). A helper the file imports that threw stays failed in this process.
   * @throws Error naming the file and the cause (a TypeScript hint, or the place in the package's code, when known).
   */
  module(file: string): Promise<Record<string, unknown>> {
    const failed = this.failures.get(file);
    const now = failed === undefined ? undefined : stampOf(file);
    if (failed !== undefined && failed.stamp !== now) this.modules.delete(file);
    let m = this.modules.get(file);
    if (!m) {
      const attempt = failed === undefined ? 0 : failed.attempt + 1;
      const stamp = now ?? stampOf(file);
      m = import(`${pathToFileURL(file).href}${attempt > 0 ? `?attempt=${attempt}` : ''}`).then(
        (mod) => mod as Record<string, unknown>,
        (err: unknown) => {
          this.failures.set(file, { attempt, stamp });
          throw Object.assign(new Error(`Cannot load ${file}: ${describeLoadFailure(err, file)}`), { stack: (err as Error).stack });
        },
      );
      this.modules.set(file, m);
    }
    return m;
  }

  /**
   * The runtime definition of a discovered activity.
   * @throws Error when its module does not load, or its export is not the step/evaluator discovery read.
   */
  async of(entry: ActivityEntry): Promise<ActivityDefinition> {
    const def = definitionOf((await this.module(entry.file))[entry.exportName]);
    if (!def || def.kind === 'workflow' || def.name !== entry.name) {
      throw new Error(
        `${entry.file}: export "${entry.exportName}" should be ${entry.kind} "${entry.name}" (as read statically) but the module defines ${def ? `${def.kind} "${def.name}"` : 'no step or evaluator'} there`,
      );
    }
    return def;
  }
}

/** A file's stat as a string (`size:mtimeMs:ino`), or `missing`: what tells that a file changed. */
function stampOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.size}:${st.mtimeMs}:${st.ino}` : 'missing';
}

/** Facts cached per workflow (with its own activities) and per shared activity. */
type CachedFacts = { workflow: WorkflowFacts; binding: string; activities: ActivityFacts[] } | { activity: ActivityFacts };

/** Where `loadProject` may find and store facts: the start's shared file digests and the cache directory. */
export interface LoadCache {
  dir: string;
  digests: FileDigests;
}

const activityFacts = (def: ActivityDefinition): ActivityFacts => ({
  name: def.name,
  kind: def.kind,
  ...(def.options?.activityOptions !== undefined ? { activityOptions: def.options.activityOptions } : {}),
  ...(def.options?.disableTrace === true ? { disableTrace: true as const } : {}),
});

/** The manifest entry as cache subject: everything discovery read except the catalog-wide activity types. */
const subjectOf = (tag: string, entry: object) => `${tag}:${JSON.stringify({ ...entry, activityTypes: undefined })}`;

/**
 * Imports the workflow and activity modules the manifest names (the worker runs package code; discovery
 * never does) and pairs each discovered entry with the facts of its runtime definition. With `cache`, a
 * workflow (with its own steps and evaluators) or shared activity whose modules, and every file they import,
 * are unchanged since a start that imported them reuses that start's facts (`FactsCache`) and is not
 * imported now: its definitions load on first call (`ActivityDefinitions`).
 * @throws WorkerStartupError when a module imported now fails to load or a definition disagrees with what discovery read.
 */
export async function loadProject(manifest: Manifest, cache?: LoadCache): Promise<LoadedProject> {
  const definitions = new ActivityDefinitions();
  const facts = cache ? new FactsCache<CachedFacts>(cache.dir, cache.digests) : null;
  const key = cache ? sha1(`facts-1\n${toolFingerprint(['@skein/core', '@skein/names'], ['zod'], cache.digests)}`) : '';
  const known = facts ? facts.valid(key) : new Map<string, FactsEntry<CachedFacts>>();
  const recorder = facts ? recordModuleGraph() : null;
  const store: Array<FactsEntry<CachedFacts> | { subject: string; facts: CachedFacts; roots: string[] }> = [];
  const counts = { imported: 0, cached: 0 };
  const atStartup = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (err) {
      if (err instanceof WorkerStartupError) throw err;
      throw new WorkerStartupError((err as Error).message, (err as Error).stack);
    }
  };
  const importActivity = async (entry: ActivityEntry): Promise<ActivityFacts> => activityFacts(await atStartup(() => definitions.of(entry)));

  const workflows: LoadedWorkflow[] = [];
  const scoped = new Map<string, LoadedActivity[]>();
  const shared: LoadedActivity[] = [];
  try {
    for (const entry of manifest.workflows) {
      const subject = subjectOf('workflow', entry);
      const hit = known.get(subject);
      let found: CachedFacts & { workflow: WorkflowFacts };
      // Facts cached by an older release carry no `schedules`: read again.
      if (hit && 'workflow' in hit.facts && hit.facts.activities.length === entry.activities.length && Array.isArray(hit.facts.workflow.schedules)) {
        found = hit.facts;
        store.push(hit);
        counts.cached++;
      } else {
        const mod = await atStartup(() => definitions.module(entry.file));
        const binding = Object.entries(mod).find(([, v]) => {
          const d = definitionOf(v);
          return d?.kind === 'workflow' && d.name === entry.name;
        });
        if (!binding) throw new WorkerStartupError(`${entry.file}: no export defines workflow "${entry.name}" (as read statically)`);
        const def = definitionOf(binding[1]) as WorkflowDefinition;
        const workflow: WorkflowFacts = {
          name: def.name,
          aliases: def.aliases,
          description: def.description ?? null,
          inputSchema: jsonSchema(def.inputSchema, 'input'),
          outputSchema: jsonSchema(def.outputSchema, 'output'),
          schedules: declaredSchedules(def),
        };
        found = { workflow, binding: binding[0], activities: await Promise.all(entry.activities.map(importActivity)) };
        store.push({ subject, facts: found, roots: [entry.file, ...entry.activities.map((a) => a.file)] });
        counts.imported++;
      }
      workflows.push({ entry, facts: found.workflow, binding: found.binding });
      scoped.set(
        entry.name,
        entry.activities.map((a, i) => ({ entry: a, facts: found.activities[i]! })),
      );
    }
    for (const entry of manifest.sharedActivities) {
      const subject = subjectOf('shared', entry);
      const hit = known.get(subject);
      if (hit && 'activity' in hit.facts) {
        shared.push({ entry, facts: hit.facts.activity });
        store.push(hit);
        counts.cached++;
      } else {
        const activity = await importActivity(entry);
        shared.push({ entry, facts: activity });
        store.push({ subject, facts: { activity }, roots: [entry.file] });
        counts.imported++;
      }
    }
  } finally {
    recorder?.stop();
  }

  const project: LoadedProject = { manifest, workflows, scoped, shared, activityFiles: activityFilesOf(scoped, shared), definitions, counts };
  // Nothing imported: the stored facts are still exactly these.
  if (facts && recorder && cache && (counts.imported > 0 || known.size !== store.length)) {
    const entries = store.flatMap((e) => ('roots' in e ? (filesOf(e, recorder.graph, cache.digests) ?? []) : [e]));
    const storeError = await facts.store(key, entries);
    if (storeError) project.storeError = storeError;
  }
  return project;
}

/** Real paths, each asked of the file system once: a steps file holds several activities. */
function realPaths(): (file: string) => string {
  const reals = new Map<string, string>();
  return (file) => reals.get(file) ?? reals.set(file, realpathSync.native(file)).get(file)!;
}

/**
 * The real paths of the manifest's activity files, each once, in the order `LoadedProject.activityFiles` lists them
 * (workflow-scoped ones by workflow, then the shared ones): the files a bundle stubs, known before anything is imported.
 */
export function declaredActivityFiles(manifest: Pick<Manifest, 'workflows' | 'sharedActivities'>): string[] {
  const realOf = realPaths();
  return [...new Set([...manifest.workflows.flatMap((w) => w.activities), ...manifest.sharedActivities].map((a) => realOf(a.file)))];
}

/** Real path of every activity file → its activities (each export once), for the workflow bundle's stub loader. */
function activityFilesOf(scoped: Map<string, LoadedActivity[]>, shared: LoadedActivity[]): Map<string, LoadedActivity[]> {
  const activityFiles = new Map<string, LoadedActivity[]>();
  const realOf = realPaths();
  for (const act of [...[...scoped.values()].flat(), ...shared]) {
    const real = realOf(act.entry.file);
    const list = activityFiles.get(real) ?? [];
    if (!list.some((a) => a.entry.exportName === act.entry.exportName)) list.push(act);
    activityFiles.set(real, list);
  }
  return activityFiles;
}

/**
 * The facts of a loaded project's definitions, in the manifest's order (JSON-safe): what a build stores so that
 * a worker started from it imports no module before serving (`restoreProject`).
 */
export interface ProjectFacts {
  workflows: Array<{ workflow: WorkflowFacts; binding: string; activities: ActivityFacts[] }>;
  shared: ActivityFacts[];
}

/** The facts of `project` (see `ProjectFacts`). */
export function projectFacts(project: LoadedProject): ProjectFacts {
  return {
    workflows: project.workflows.map((wf) => ({
      workflow: wf.facts,
      binding: wf.binding,
      activities: (project.scoped.get(wf.entry.name) ?? []).map((a) => a.facts),
    })),
    shared: project.shared.map((a) => a.facts),
  };
}

/**
 * The loaded project of `manifest` from stored facts, importing nothing: every definition loads on an
 * activity's first call (`ActivityDefinitions`), as for facts from the startup cache.
 * @throws WorkerStartupError when the facts do not fit the manifest (another number of workflows or activities).
 */
export function restoreProject(manifest: Manifest, facts: ProjectFacts): LoadedProject {
  const fits =
    facts.workflows.length === manifest.workflows.length &&
    facts.shared.length === manifest.sharedActivities.length &&
    manifest.workflows.every(
      (entry, i) => facts.workflows[i]!.workflow.name === entry.name && facts.workflows[i]!.activities.length === entry.activities.length,
    );
  if (!fits) throw new WorkerStartupError('the stored definitions do not match the manifest');
  const workflows: LoadedWorkflow[] = [];
  const scoped = new Map<string, LoadedActivity[]>();
  manifest.workflows.forEach((entry, i) => {
    const found = facts.workflows[i]!;
    workflows.push({ entry, facts: found.workflow, binding: found.binding });
    scoped.set(
      entry.name,
      entry.activities.map((a, j) => ({ entry: a, facts: found.activities[j]! })),
    );
  });
  const shared = manifest.sharedActivities.map((entry, i) => ({ entry, facts: facts.shared[i]! }));
  const counts = { imported: 0, cached: workflows.length + shared.length };
  return { manifest, workflows, scoped, shared, activityFiles: activityFilesOf(scoped, shared), definitions: new ActivityDefinitions(), counts };
}

/** The files a freshly imported entry was computed from, with the content they were loaded from; undefined when one cannot be read. */
function filesOf(e: { subject: string; facts: CachedFacts; roots: string[] }, graph: ModuleGraph, digests: FileDigests): [FactsEntry<CachedFacts>] | undefined {
  const files: Array<[string, string]> = [];
  for (const file of closureOf(
    graph,
    e.roots.map((r) => realpathSync.native(r)),
  )) {
    const digest = graph.sources.get(file) ?? digests.digest(file);
    if (digest === null) return undefined;
    files.push([file, digest]);
  }
  return [{ subject: e.subject, facts: e.facts, files }];
}
