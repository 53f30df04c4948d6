/**
 * webpack out of the serving process: one run of the workflow bundle (`runWebpack`) in a child process that has
 * exited before the worker serves, so webpack's memory (its heap, the native memory of its buffers, the swc
 * compiler: about 600 MB on a 1,000-workflow project) is returned to the system instead of staying in the worker's
 * resident set for its whole life. A worker thread would not do: the memory a thread allocates through the C
 * library stays with the process after the thread ends.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runWebpack, type WebpackResult, type WebpackRun } from './webpack.js';

/** What the bundling process sends back: the bundle and the files it read, or the error that stopped it. */
export type WebpackProcessResult = { code: string; inputs: WebpackResult['inputs'] } | { error: { message: string; stack?: string } };

/** How much of the bundling process's stderr is kept to explain a crash (bytes). */
const STDERR_KEPT = 8 * 1024;

/**
 * Runs `runWebpack(run)` in a child process and resolves once that process has exited. webpack's persistent cache
 * (`run.persistent`) is read but not written there (the result has no `close`): writing it is left to the detached
 * priming process (`primeWebpackCache`), off the worker's critical path. The child gets this process's environment
 * and none of its Node flags (a worker's heap limits are sized for serving, not for webpack). Under a TypeScript
 * runner (sources, tests) it runs in this process, as `runWebpack` does, `close` included.
 * @throws Error whose message is webpack's own error text when bundling fails, or naming how the process ended.
 */
export async function runWebpackIsolated(run: WebpackRun): Promise<WebpackResult> {
  if (import.meta.url.endsWith('.ts')) return runWebpack(run);
  const child = fork(fileURLToPath(new URL('./webpack-process-main.js', import.meta.url)), [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const answer = new Promise<WebpackProcessResult | undefined>((resolve) => {
    child.once('message', (m) => resolve(m as WebpackProcessResult));
    void exited.then(() => resolve(undefined));
  });
  child.once('error', () => {});
  try {
    child.send({ run });
    const result = await answer;
    const [code, signal] = await exited;
    if (result && 'code' in result) return { code: result.code, inputs: result.inputs };
    if (result) throw Object.assign(new Error(result.error.message), result.error.stack ? { stack: result.error.stack } : {});
    throw new Error(`the bundling process ended (${signal ?? `exit code ${String(code)}`}) without a bundle${stderr ? `:\n${stderr.trim()}` : ''}`);
  } finally {
    // The bundling process's memory is released only once it has exited: never serve before that.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}
