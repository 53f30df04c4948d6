import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerMessage } from './protocol.js';
import { withWorkerMallocArenas } from '../malloc-arenas.js';

/** A worker running the project in a child process (`skein worker`), so a reload loads fresh modules. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the `ready` report; rejects with the one-line or multi-line reason it did not start. */
  ready: Promise<Extract<WorkerMessage, { type: 'ready' }>>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM (graceful: in-flight activities get the grace time), SIGKILL after `forceAfterMs`; resolves on exit. */
  stop(forceAfterMs?: number): Promise<void>;
}

/** A worker child that did not start; `message` is the child's own explanation (every finding for an invalid project). */
export class WorkerStartFailed extends Error {
  override name = 'WorkerStartFailed';
}

/** The CLI's own entry (compiled `bin.js`), run again as the child. */
const binPath = fileURLToPath(new URL('../bin.js', import.meta.url));

/**
 * Starts `skein worker <projectDir>` as a child process with an IPC channel. Its stdout (log lines) goes to
 * this process's stdout as is; its stderr is kept to explain a failed start and otherwise forwarded.
 * @param env extra environment (the engine address, trace directory, log format).
 */
export function spawnWorker(projectDir: string, env: Record<string, string>): WorkerProcess {
  const child = fork(binPath, ['worker', projectDir], {
    // The worker's malloc arenas bounded here: with an IPC channel it cannot start itself again with them.
    env: withWorkerMallocArenas({ ...process.env, ...env }),
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    // Its own process group: a terminal's Ctrl-C reaches only `skein dev`, which stops the worker once,
    // gracefully. If `skein dev` dies, the closed IPC channel stops the worker.
    detached: true,
  });
  let stderr = '';
  let started = false;
  child.stderr?.on('data', (chunk: Buffer) => {
    if (started) process.stderr.write(chunk);
    else stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<Extract<WorkerMessage, { type: 'ready' }>>((resolve, reject) => {
    let failure: string | undefined;
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        started = true;
        if (stderr) process.stderr.write(stderr);
        resolve(message);
      } else if (message.type === 'failed') failure = message.message;
    });
    void exited.then((code) => {
      const printed = stderr.replace(/^skein: /, '').trim();
      reject(new WorkerStartFailed(failure ?? (printed || `the worker exited with code ${code} before it was ready`)));
    });
  });
  ready.catch(() => {});
  return {
    child,
    ready,
    exited,
    async stop(forceAfterMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
