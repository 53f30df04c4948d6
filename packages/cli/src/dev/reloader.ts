import path from 'node:path';
import type { Logger } from 'pino';
import { machineFields } from '../logger.js';
import type { WorkerMessage } from './protocol.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

type Ready = Extract<WorkerMessage, { type: 'ready' }>;

/**
 * Keeps one worker child process serving the project and swaps it on demand: the new worker validates,
 * bundles (through the bundle cache) and registers while the old one keeps serving; once the new one is
 * ready (and the reload is reported) the old one stops gracefully in the background: its in-flight activities get
 * the shutdown grace time and are then cancelled, so Temporal retries them on the new worker at once (in-flight runs
 * continue on the new worker: Temporal replays them). It is killed only `stopAfterMs` after it was asked to stop,
 * later than the worker's own forced stop, so that the cancellation is reported rather than left to the activity's
 * start-to-close timeout.
 * A new worker that fails to start (an invalid project: the validator's findings) leaves the old one
 * serving: its workflow code and the modules it imported stay as they were; a step or evaluator it has not run yet
 * is imported from the file as it is now (on its first call). Reloads never overlap: changes during a reload start one more reload after it.
 */
export class WorkerReloader {
  private current: WorkerProcess | undefined;
  private running: Promise<void> | undefined;
  private queued: string[] | undefined;
  private stopped = false;
  /** The names of the workflows the current worker serves. */
  private workflows: string[] = [];
  /** Workers asked to stop after a reload, until they exit. */
  private readonly retiring = new Set<Promise<void>>();
  /** Called after every successful start with the new worker's report. */
  onReady: (ready: Ready) => void = () => {};

  /**
   * @param stopAfterMs how long a worker asked to stop may take before it is killed, ms: longer than its shutdown
   *   grace time plus its own forced stop (`SHUTDOWN_FORCE_EXTRA_MS` of `@skein/worker/settings`)
   */
  constructor(
    private readonly projectDir: string,
    private readonly env: Record<string, string>,
    private readonly logger: Logger,
    private readonly stopAfterMs: number,
  ) {}

  /** Starts the first worker. @throws Error with the worker's own explanation when it cannot start. */
  async start(): Promise<Ready> {
    const worker = spawnWorker(this.projectDir, this.env);
    const ready = await worker.ready;
    this.adopt(worker);
    this.workflows = ready.workflows;
    this.onReady(ready);
    return ready;
  }

  /** Called when the serving worker exits on its own (crash, lost engine), with its exit code. */
  onExit: (code: number | null) => void = () => {};

  /** Reloads for `files` (absolute paths, for the log line); coalesces with a reload in progress. */
  reload(files: string[]): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.queued = [...new Set([...(this.queued ?? []), ...files])];
      return this.running;
    }
    this.running = this.swap([...new Set(files)]).finally(() => {
      this.running = undefined;
      const next = this.queued;
      this.queued = undefined;
      if (next && !this.stopped) void this.reload(next);
    });
    return this.running;
  }

  /** Stops the current worker and the ones still stopping after a reload (and lets a reload in progress finish first). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => {});
    await Promise.all([this.current?.stop(this.stopAfterMs), ...this.retiring]);
  }

  private retire(worker: WorkerProcess): void {
    const stopped = worker.stop(this.stopAfterMs).catch(() => {});
    this.retiring.add(stopped);
    void stopped.finally(() => this.retiring.delete(stopped));
  }

  private adopt(worker: WorkerProcess): void {
    this.current = worker;
    void worker.exited.then((code) => {
      if (this.current === worker && !this.stopped) this.onExit(code);
    });
  }

  private async swap(files: string[]): Promise<void> {
    const started = performance.now();
    const what = describeChange(this.projectDir, files);
    // Validating and bundling takes seconds: say at once that the edit was seen.
    this.logger.info(machineFields({ changed: files }), `${what}; reloading…`);
    const next = spawnWorker(this.projectDir, this.env);
    let ready: Ready;
    try {
      ready = await next.ready;
    } catch (err) {
      this.logger.error(
        machineFields({ changed: files }),
        `reload failed after ${what}; the previous worker keeps serving, but the steps and evaluators it has not run yet load from the files as they are now. Fix this and save again:\n${(err as Error).message}`,
      );
      return;
    }
    const previous = this.current;
    const before = this.workflows;
    this.adopt(next);
    this.workflows = ready.workflows;
    if (previous) this.retire(previous);
    if (this.stopped) return; // stop() stops `next`, the current worker now
    this.onReady(ready);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const changes = describeWorkflowChanges(before, ready.workflows);
    this.logger.info(
      machineFields({ changed: files, ms: Math.round(performance.now() - started), bundleCache: ready.startup.bundleCache }),
      `reloaded in ${seconds} s: ${what} (${ready.workflows.length} workflow(s)${changes ? `: ${changes}` : ''}, bundle ${ready.startup.bundleCache === 'hit' ? 'from cache' : 'rebuilt'})`,
    );
  }
}

/**
 * "summarize/steps.js changed" or "3 files changed (summarize/steps.js, ...)", paths relative to the project. A folder
 * whose files are listed too (a new folder and the file saved in it) is not counted again.
 */
export function describeChange(projectDir: string, files: string[]): string {
  const unique = [...new Set(files)];
  const shownFiles = unique.filter((f) => !unique.some((other) => other.startsWith(`${f}${path.sep}`)));
  const rel = shownFiles.map((f) => {
    const r = path.relative(projectDir, f);
    return r.startsWith('..') ? f : r;
  });
  if (rel.length === 1) return `${rel[0]} changed`;
  const shown = rel.slice(0, 3).join(', ');
  return `${rel.length} files changed (${shown}${rel.length > 3 ? ', ...' : ''})`;
}

/**
 * "added digest; removed summarize": the workflows a reload added and removed, by name (a renamed workflow is one of
 * each); "" when it served the same ones.
 */
export function describeWorkflowChanges(before: readonly string[], after: readonly string[]): string {
  const had = new Set(before);
  const has = new Set(after);
  const added = after.filter((name) => !had.has(name));
  const removed = before.filter((name) => !has.has(name));
  return [added.length ? `added ${added.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean).join('; ');
}
