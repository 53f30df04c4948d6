import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type SerializedError, type WorkflowDetails } from '@skein/core';
import { type TraceEvent } from '@skein/core/internal';
import { traceFilePath, type TraceDestinations } from '@skein/names/traces';
import { asHistoryNames } from './attempts.js';
import { assembleTrace, type AssemblySources, type ClosingRun, type RunOutcome } from './assemble.js';
import { reportTraceExport } from './outcome.js';
import type { TraceExporter, TraceFile, TraceNode } from './types.js';

/** What the recorder reads from the engine. */
export interface TraceEngine {
  history: AssemblySources['history'];
  /** Whether a run is closed, and the trace destinations its memo names. @throws when the engine cannot answer. */
  describe(workflowId: string, runId: string): Promise<{ closed: boolean; destinations: TraceDestinations }>;
}

/** Most activities whose attempt errors are kept in memory until their root run's trace is assembled. */
const MAX_REMEMBERED_ACTIVITIES = 10_000;

/**
 * Produces one trace per root run, whichever workers ran its steps, evaluators and child workflows: when the root
 * run closes, the worker that closed it assembles the tree from the engine's histories of the root and its
 * children ({@link assembleTrace}), writes it to the root's local trace file (when this worker has a trace
 * directory) and hands it to the exporters (the S3 destination). A child run that closes after its root (a
 * detached child) assembles its root's tree again. Attempt errors of retried activities that this worker ran are
 * added to the tree (history keeps only the last one).
 * A run's close reaches the recorder before the engine records it, so the closing run's own outcome closes its node
 * when its history does not yet; and one root's deliveries run one after the other, in the order its runs closed,
 * so an assembly that started earlier never overwrites the trace of a later one.
 * Nothing here throws into workflow or activity code; failures go to `onError`.
 */
export class TraceRecorder {
  /** Failed attempts by `<workflowId>:<runId>:<activityId>`. */
  private readonly attempts = new Map<string, NonNullable<TraceNode['retries']>>();
  /** `Tracing` events of activities this worker ran, by `<workflowId>:<runId>:<activityId>` (last attempt's). */
  private readonly events = new Map<string, TraceEvent[]>();
  /** Deliveries in progress. */
  private readonly pending = new Set<Promise<void>>();
  /** The last delivery queued for each root run, by `<workflowId>:<runId>` (removed when it settles). */
  private readonly queues = new Map<string, Promise<void>>();

  /**
   * @param dir local trace directory, or null for none.
   * @param engine history and description of runs.
   * @param activity kind and name of an activity type.
   */
  constructor(
    private readonly dir: string | null,
    private readonly engine: TraceEngine,
    private readonly activity: AssemblySources['activity'],
    private readonly exporters: TraceExporter[] = [],
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** An activity attempt failed: its error is kept for the retries of its trace node. */
  activityFailed(details: WorkflowDetails, activityId: string, attempt: number, error: SerializedError): void {
    const key = `${details.workflowId}:${details.runId}:${activityId}`;
    let list = this.attempts.get(key);
    if (!list) {
      if (this.attempts.size >= MAX_REMEMBERED_ACTIVITIES) this.attempts.delete(this.attempts.keys().next().value!);
      this.attempts.set(key, (list = []));
    }
    // Named as history names it (the error's own type, not the failure class that carried it).
    list.push({ attempt, error: asHistoryNames(error) });
  }

  /** An activity attempt ended having added `Tracing` events: they are filed under its node (the latest attempt's). */
  activityEvents(details: WorkflowDetails, activityId: string, events: TraceEvent[]): void {
    const key = `${details.workflowId}:${details.runId}:${activityId}`;
    if (!this.events.has(key) && this.events.size >= MAX_REMEMBERED_ACTIVITIES) this.events.delete(this.events.keys().next().value!);
    this.events.set(key, events);
  }

  /**
   * A workflow run finished (completed with `output`, or failed with `error`) on this worker; `destinations` are
   * the trace destinations its memo names. A root run's trace is assembled and delivered; a child's is assembled
   * again only when its root has already closed.
   */
  async workflowFinished(details: WorkflowDetails, result: { output: unknown } | { error: SerializedError }, destinations: TraceDestinations): Promise<void> {
    const root = details.root ?? { workflowId: details.workflowId, runId: details.runId };
    const isRoot = root.workflowId === details.workflowId && root.runId === details.runId;
    // A run that names no destination (traces off when it started) has no trace to assemble.
    if (destinations.local === undefined && destinations.remote === undefined) return;
    const endedAt = Date.now();
    const work = this.queue(root, async () => {
      if (isRoot) return this.deliver(root, { ...result, endedAt }, destinations);
      const described = await this.engine.describe(root.workflowId, root.runId);
      const closing: ClosingRun = { workflowId: details.workflowId, runId: details.runId, outcome: { ...result, endedAt } };
      if (described.closed) await this.deliver(root, undefined, described.destinations, closing);
    });
    this.pending.add(work);
    try {
      await work;
    } finally {
      this.pending.delete(work);
    }
  }

  /** Runs `task` after the deliveries already queued for `root` have settled, whatever their outcome. */
  private queue(root: { workflowId: string; runId: string }, task: () => Promise<void>): Promise<void> {
    const key = `${root.workflowId}:${root.runId}`;
    const work = (this.queues.get(key) ?? Promise.resolve()).then(task);
    const settled = work.then(
      () => {},
      () => {},
    );
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return work;
  }

  /** Waits for the deliveries in progress (worker shutdown). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async deliver(
    root: { workflowId: string; runId: string },
    outcome: RunOutcome | undefined,
    destinations: TraceDestinations,
    closing?: ClosingRun,
  ): Promise<void> {
    if (destinations.local === undefined && destinations.remote === undefined) return;
    const sources = {
      history: this.engine.history,
      activity: this.activity,
      retries: (k: string) => this.attempts.get(k),
      events: (k: string) => this.events.get(k),
    };
    let tree: TraceNode | undefined;
    // The engine may be briefly unavailable: read the histories again after 0.5 s and 2 s before giving up.
    for (const waitMs of [500, 2_000, -1]) {
      try {
        tree = await assembleTrace(root, sources, outcome, closing);
        break;
      } catch (err) {
        if (waitMs < 0) throw err;
        await new Promise((r) => setTimeout(r, waitMs));
      }
    }
    if (!tree) return;
    this.forget(tree);
    const trace: TraceFile = { version: 1, root, updatedAt: Date.now(), tree };
    const writes: Promise<void>[] = [];
    // The memo's local path only says that the run keeps a local trace: it is written in this worker's own folder,
    // under the root's own name, whatever folder the memo names (a run an earlier build or another machine started).
    if (this.dir && destinations.local !== undefined) writes.push(this.writeLocal(traceFilePath(this.dir, root), trace));
    for (const exporter of this.exporters) {
      writes.push(exporter.export(trace, destinations).catch((err: unknown) => this.onError(err)));
    }
    await Promise.all(writes);
  }

  private forget(node: TraceNode, run?: string): void {
    const own = node.workflowId && node.runId ? `${node.workflowId}:${node.runId}` : run;
    if (node.activityId && run) this.attempts.delete(`${run}:${node.activityId}`);
    for (const child of node.children) this.forget(child, own);
  }

  private async writeLocal(file: string, trace: TraceFile): Promise<void> {
    const at = { workflowId: trace.root.workflowId, runId: trace.root.runId, destination: 'local' as const };
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(tmp, JSON.stringify(trace, null, 2));
      await rename(tmp, file);
      reportTraceExport({ ...at, ok: true });
    } catch (err) {
      reportTraceExport({ ...at, ok: false, reason: (err as Error).message });
      this.onError(err);
    }
  }
}
