/**
 * The C library's malloc arenas of a long-running `skein worker`. Temporal's native core (Rust, on many threads)
 * allocates through glibc's malloc, which gives each thread that contends an arena of its own (up to 8 per core) and
 * keeps what those arenas once held: the worker's resident set crept up by 30-50 MB over 10,000 runs while both V8
 * heaps stayed flat (bench/soak). With two arenas (`MALLOC_ARENA_MAX=2`) the same soak held flat (+3% from run 1,000
 * to run 5,000, sampled while serving) and 40-50 MB lower throughout. glibc reads the setting only when a process
 * starts, so `skein worker` starts itself again with it (`process.execve`: the same process id, the same standard
 * streams) before it loads anything else; `skein dev` gives it to the worker it forks. An operator's own
 * `MALLOC_ARENA_MAX`, or `GLIBC_TUNABLES` naming `glibc.malloc.arena_max`, wins. Other C libraries (musl) ignore
 * the variable. docs/operating.md describes it.
 */

/** The arenas a worker process gets (glibc's `MALLOC_ARENA_MAX`). */
export const WORKER_MALLOC_ARENAS = '2';

/**
 * `env` with `MALLOC_ARENA_MAX` set to {@link WORKER_MALLOC_ARENAS} on Linux, unless it already sets the arenas
 * (`MALLOC_ARENA_MAX`, or `GLIBC_TUNABLES` naming `glibc.malloc.arena_max`); otherwise `env` itself.
 * @param env an environment (default: this process's).
 * @param platform the operating system (default: `process.platform`).
 */
export function withWorkerMallocArenas(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): NodeJS.ProcessEnv {
  if (platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined || env.GLIBC_TUNABLES?.includes('glibc.malloc.arena_max')) return env;
  return { ...env, MALLOC_ARENA_MAX: WORKER_MALLOC_ARENAS };
}

/**
 * For `skein worker` on Linux started without the arenas set: replaces this process by the same command with them
 * (`process.execve`, which does not return). Does nothing for another command, when the arenas are set, or when the
 * process has an IPC channel (a forked worker: `execve` would close it, so its parent sets the arenas instead).
 * @param argv the command line (`process.argv`: node, script, command, …).
 */
export function reexecWorkerWithMallocArenas(argv: readonly string[] = process.argv): void {
  if (argv[2] !== 'worker' || process.channel !== undefined || typeof process.execve !== 'function') return;
  const env = withWorkerMallocArenas();
  if (env === process.env) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...argv.slice(1)], env);
}
