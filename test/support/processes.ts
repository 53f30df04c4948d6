import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './stack.js';

/** A `skein` CLI child process with its collected output. */
export interface CliProcess {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once the output matches `pattern`; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/**
 * Spawns `node packages/cli/dist/bin.js <args>` from the repository root (or `options.cwd`) with JSON logs;
 * `options.processGroup`: as the leader of a process group of its own, as a terminal starts a command (a signal to
 * `-child.pid` then reaches the group, as a terminal's Ctrl-C does).
 */
export function spawnSkein(args: string[], env: Record<string, string> = {}, options: { cwd?: string; processGroup?: boolean } = {}): CliProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, 'packages/cli/dist/bin.js'), ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, SKEIN_LOG_PRETTY: '0', ...env },
    detached: options.processGroup ?? false,
  });
  let out = '';
  const streams = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const onData = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
    out += d;
    streams[stream] += d;
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData('stdout'));
  child.stderr!.on('data', onData('stderr'));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    output: () => out,
    stdout: () => streams.stdout,
    stderr: () => streams.stderr,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(out)) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}:\n${out}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`exited with ${code} before ${pattern}:\n${out}`));
          }
        });
        check();
      });
    },
  };
}
