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
import { enableTypeScriptSources } from '../host/typescript/resolve-hook.js';
import { deferStubs } from './stub-spec.js';
import { BUNDLING_NODE_FLAGS, runWebpack, type WebpackResult, type WebpackRun } from './webpack.js';

/** What the bundling process sends back: the bundle and the files it read, or the error that stopped it. */
export type WebpackProcessResult = Pick<WebpackResult, 'code' | 'inputs' | 'modules'> | { error: { message: string; stack?: string } };

/** What the bundling process receives: the run to make, then (for a run with deferred stubs) the stubs file. */
export type WebpackProcessMessage = { run: WebpackRun } | { stubsFile: string };

/** How much of the bundling process's stderr is kept to explain a crash (bytes). */
const STDERR_KEPT = 8 * 1024;

/**
 * A bundling process started ahead of its run (`startWebpackProcess`): it loads webpack and Temporal's bundler while
 * the caller still validates and imports, then makes one run.
 */
export interface WebpackProcess {
  /**
   * Starts the one run of this process. With `run.loaderOptions.stubsFile` empty (deferred stubs), webpack resolves
   * and compiles the workflow graph at once and its stub loader waits for `provideStubs` before it emits any
   * activity file's stubs.
   * @returns `sent`: resolves once the run has reached the process (a busy event loop here would otherwise hold
   *   it back); `result`: resolves once the process has exited, as `runWebpackIsolated`, or rejects with webpack's
   *   error text.
   */
  run(run: WebpackRun): { sent: Promise<void>; result: Promise<WebpackResult> };
  /** The stubs file of a run started with deferred stubs (see `run`). */
  provideStubs(stubsFile: string): void;
  /** Ends the process without a bundle (the run, if any, rejects); resolves once it has exited. */
  cancel(): Promise<void>;
}

/**
 * Forks the bundling process at once (`webpack-process-main.ts`); it idles, webpack loaded, until `run`. The child gets
 * this process's environment and none of its Node flags (a worker's heap limits are sized for serving, not for
 * webpack): `BUNDLING_NODE_FLAGS` instead. webpack's persistent cache (`run.persistent`) is read but not written
 * there (the result has no `close`): writing it is left to the detached priming process (`primeWebpackCache`). Under a
 * TypeScript runner (sources, tests) the run happens in this process, as `runWebpack` does, `close` included.
 */
export function startWebpackProcess(): WebpackProcess {
  if (import.meta.url.endsWith('.ts')) return inProcess();
  const child = fork(fileURLToPath(new URL('./webpack-process-main.js', import.meta.url)), [], {
    execArgv: [...BUNDLING_NODE_FLAGS],
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
  const send = (message: WebpackProcessMessage) =>
    new Promise<void>((resolve) => {
      if (child.connected) child.send(message, () => resolve());
      else resolve();
    });
  const end = async () => {
    // The bundling process's memory is released only once it has exited: never serve before that.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return {
    run(run) {
      const sent = send({ run });
      const result = (async () => {
        try {
          const result = await answer;
          const [code, signal] = await exited;
          if (result && 'code' in result) return { code: result.code, inputs: result.inputs, modules: result.modules };
          if (result) throw Object.assign(new Error(result.error.message), result.error.stack ? { stack: result.error.stack } : {});
          throw new Error(`the bundling process ended (${signal ?? `exit code ${String(code)}`}) without a bundle${stderr ? `:\n${stderr.trim()}` : ''}`);
        } finally {
          await end();
        }
      })();
      return { sent, result };
    },
    provideStubs: (stubsFile) => void send({ stubsFile }),
    cancel: end,
  };
}

/**
 * `startWebpackProcess` under a TypeScript runner: the run in this process, deferred stubs through `deferStubs`, with
 * the TypeScript sources resolvable from Node's own loader as in the bundling process (the stub loader imports one).
 */
function inProcess(): WebpackProcess {
  enableTypeScriptSources();
  let provide: ((stubsFile: string) => void) | undefined;
  return {
    run(run) {
      if (run.loaderOptions.stubsFile === '') provide = deferStubs();
      return { sent: Promise.resolve(), result: runWebpack(run) };
    },
    provideStubs: (stubsFile) => provide?.(stubsFile),
    cancel: async () => provide?.(''),
  };
}

/**
 * Runs `runWebpack(run)` in a child process of its own (`startWebpackProcess`) and resolves once that process has
 * exited.
 * @throws Error whose message is webpack's own error text when bundling fails, or naming how the process ended.
 */
export async function runWebpackIsolated(run: WebpackRun): Promise<WebpackResult> {
  return startWebpackProcess().run(run).result;
}
