import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { traceFilePath, type ActivityDetails, type OutputActivityKind, type SerializedError, type WorkflowDetails } from '@skein/core';
import { redact } from './redact.js';
import type { TraceExporter, TraceFile, TraceNode } from './types.js';

interface RootState {
  file: string;
  trace: TraceFile;
  /** Workflow nodes by `<workflowId>:<runId>`, activity nodes by `<workflowId>:<runId>:<activityId>`. */
  nodes: Map<string, TraceNode>;
  writeTimer?: NodeJS.Timeout;
  writing: Promise<void>;
}

/**
 * `file` resolved, after checking it lies inside `dir` (defence in depth: `traceFilePath` already derives safe
 * names). @throws Error when it does not.
 */
function confined(dir: string, file: string): string {
  const resolved = path.resolve(file);
  if (!resolved.startsWith(path.resolve(dir) + path.sep)) throw new Error(`trace file ${JSON.stringify(resolved)} is outside the trace directory`);
  return resolved;
}

const runKey = (d: { workflowId: string; runId: string }) => `${d.workflowId}:${d.runId}`;

/**
 * Builds one trace tree per root run from hook events and keeps it on disk at
 * `<dir>/<root workflow id>/<root run id>.json` (rewritten, debounced, as nodes finish; immediately when the
 * root finishes). Inputs and outputs are redacted; error chains are already cut at 10 levels.
 * One worker per trace directory: concurrent writers to one root's file would overwrite each other.
 */
export class TraceRecorder {
  private readonly roots = new Map<string, RootState>();

  constructor(
    private readonly dir: string,
    private readonly exporters: TraceExporter[] = [],
    private readonly onError: (err: unknown) => void = () => {},
    private readonly debounceMs = 100,
  ) {}

  private async rootFor(details: WorkflowDetails): Promise<RootState> {
    const root = details.root ?? { workflowId: details.workflowId, runId: details.runId };
    const key = runKey(root);
    let state = this.roots.get(key);
    if (state) return state;
    const file = confined(this.dir, traceFilePath(this.dir, root));
    // A worker restarted mid-run continues the file its predecessor wrote.
    const existing = await readFile(file, 'utf8').then((t) => JSON.parse(t) as TraceFile, () => undefined);
    state = this.roots.get(key);
    if (state) return state;
    const trace: TraceFile = existing ?? { version: 1, root, updatedAt: Date.now(), tree: placeholder('workflow', root) };
    state = { file, trace, nodes: new Map(), writing: Promise.resolve() };
    index(trace.tree, state.nodes, undefined);
    this.roots.set(key, state);
    return state;
  }

  private workflowNode(state: RootState, details: WorkflowDetails): TraceNode {
    const key = runKey(details);
    let node = state.nodes.get(key);
    if (!node) {
      node = placeholder(details.parent ? 'child_workflow' : 'workflow', details);
      const parent = details.parent ? state.nodes.get(runKey(details.parent)) : undefined;
      (parent ?? state.trace.tree).children.push(node);
      state.nodes.set(key, node);
    }
    node.name = details.workflowType;
    return node;
  }

  /** A workflow run started with `input`. */
  async workflowStarted(details: WorkflowDetails, input: unknown): Promise<void> {
    const state = await this.rootFor(details);
    const node = this.workflowNode(state, details);
    Object.assign(node, { status: 'running', startedAt: details.runStartTime, input: redact(input) });
    this.scheduleWrite(state);
  }

  /** A workflow run finished: completed with `output`, or failed with `error`. */
  async workflowFinished(details: WorkflowDetails, result: { output: unknown } | { error: SerializedError }): Promise<void> {
    const state = await this.rootFor(details);
    const node = this.workflowNode(state, details);
    finish(node, result);
    const isRoot = !details.root || (details.root.workflowId === details.workflowId && details.root.runId === details.runId);
    if (isRoot) await this.complete(state);
    else this.scheduleWrite(state);
  }

  /** An activity attempt started. */
  async activityStarted(details: WorkflowDetails, info: ActivityDetails, kind: OutputActivityKind, input: unknown): Promise<void> {
    const state = await this.rootFor(details);
    const parent = this.workflowNode(state, details);
    const key = `${runKey(details)}:${info.activityId}`;
    let node = state.nodes.get(key);
    if (!node) {
      node = { ...placeholder(kind, details), name: info.name, activityType: info.activityType, activityId: info.activityId };
      delete node.workflowId;
      delete node.runId;
      parent.children.push(node);
      state.nodes.set(key, node);
    } else if (node.error && node.attempt !== undefined) {
      (node.retries ??= []).push({ attempt: node.attempt, error: node.error });
      delete node.error;
    }
    Object.assign(node, { status: 'running', attempt: info.attempt, startedAt: Date.now(), endedAt: null, durationMs: null, input: redact(input) });
    this.scheduleWrite(state);
  }

  /** An activity attempt finished. */
  async activityFinished(details: WorkflowDetails, info: ActivityDetails, result: { output: unknown } | { error: SerializedError }): Promise<void> {
    const state = await this.rootFor(details);
    const node = state.nodes.get(`${runKey(details)}:${info.activityId}`);
    if (!node) return;
    finish(node, result);
    this.scheduleWrite(state);
  }

  private scheduleWrite(state: RootState): void {
    if (state.writeTimer) return;
    state.writeTimer = setTimeout(() => {
      state.writeTimer = undefined;
      void this.write(state);
    }, this.debounceMs);
    state.writeTimer.unref();
  }

  private write(state: RootState): Promise<void> {
    state.writing = state.writing.then(async () => {
      try {
        state.trace.updatedAt = Date.now();
        await mkdir(path.dirname(state.file), { recursive: true });
        const tmp = `${state.file}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(state.trace, null, 2));
        await rename(tmp, state.file);
      } catch (err) {
        this.onError(err);
      }
    });
    return state.writing;
  }

  private async complete(state: RootState): Promise<void> {
    clearTimeout(state.writeTimer);
    state.writeTimer = undefined;
    await this.write(state);
    this.roots.delete(runKey(state.trace.root));
    for (const exporter of this.exporters) {
      await exporter.export(state.trace).catch((err: unknown) => this.onError(err));
    }
  }

  /** Writes every trace still in memory (worker shutdown). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.roots.values()].map((s) => {
        clearTimeout(s.writeTimer);
        s.writeTimer = undefined;
        return this.write(s);
      }),
    );
  }
}

function placeholder(kind: TraceNode['kind'], run: { workflowId: string; runId: string }): TraceNode {
  return { kind, name: '', status: 'running', workflowId: run.workflowId, runId: run.runId, startedAt: null, endedAt: null, durationMs: null, children: [] };
}

function finish(node: TraceNode, result: { output: unknown } | { error: SerializedError }): void {
  node.endedAt = Date.now();
  node.durationMs = node.startedAt === null ? null : node.endedAt - node.startedAt;
  if ('error' in result) {
    node.status = 'failed';
    node.error = result.error;
  } else {
    node.status = 'completed';
    node.output = redact(result.output);
  }
}

function index(node: TraceNode, nodes: Map<string, TraceNode>, parentRun: string | undefined): void {
  const own = node.workflowId && node.runId ? `${node.workflowId}:${node.runId}` : undefined;
  if (own) nodes.set(own, node);
  else if (parentRun && node.activityId) nodes.set(`${parentRun}:${node.activityId}`, node);
  for (const child of node.children) index(child, nodes, own ?? parentRun);
}
