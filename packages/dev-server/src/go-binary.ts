import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, chmod, constants, copyFile, cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where installed binaries are cached between runs: `$XDG_CACHE_HOME/skein` or `~/.cache/skein`. */
export function cacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'skein');
}

/** The folder holding cached binaries: `<cacheDir()>/bin`. */
export function binaryCacheDir(): string {
  return path.join(cacheDir(), 'bin');
}

/**
 * One program built from the Go module proxy into the binary cache.
 *
 * `method` says how:
 * - `install`: `go install <module>/<command>@<version>` (with `-v`, so each compiled package is a progress line);
 * - `tool`: a scratch module records `<module>/<command>@<version>` as a tool dependency and `go build` compiles it
 *   (for modules whose `go install` would resolve other versions of their dependencies than their own go.mod);
 * - `source`: `go mod download` of `<module>@<version>`, copied to a writable folder and built there with
 *   `go build ./<command>` (for modules whose go.mod has `replace` directives, which `go install` refuses).
 */
export interface GoBinarySpec {
  /** The binary's file name in the cache, e.g. `weed`. */
  name: string;
  /** The program's name in messages, e.g. `SeaweedFS`. */
  label: string;
  /** A variable that may name a binary to use as is, e.g. `SEAWEEDFS_WEED_PATH`. */
  envVar: string;
  /** The Go module, e.g. `github.com/seaweedfs/seaweedfs`. */
  module: string;
  /** The command's folder inside the module, e.g. `weed` or `cmd/jaeger`. */
  command: string;
  /** The module version (a tag or pseudo-version). */
  version: string;
  method: 'install' | 'tool' | 'source';
  /** How long a build takes, for the first progress line (e.g. "about 7 minutes on 2 cores"). */
  expected: string;
  /** Extra environment for `go` (e.g. `{ CGO_ENABLED: '0' }`). */
  env?: Record<string, string>;
}

/** Where a binary was found: the spec's variable, the cache, or a build made just now. */
export interface LocatedBinary {
  path: string;
  source: 'env' | 'cache' | 'built';
}

/** Thrown when a binary is neither given, cached nor buildable; `message` says what is missing and the remedy. */
export class BinaryNotFoundError extends Error {
  override name = 'BinaryNotFoundError';
}

async function executable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** The first executable `name` on `PATH`, if any. */
export async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && (await executable(path.join(dir, name)))) return path.join(dir, name);
  }
  return undefined;
}

/**
 * Runs a command, passing each non-empty line it prints (stdout and stderr) to `onLine` as it comes. With `nice`,
 * the command runs at that lower CPU priority (1–19; its own children inherit it), so a long build leaves the
 * machine's other work responsive.
 * @throws Error naming the command and carrying its last 5 lines when it exits non-zero or runs past `timeoutMs`.
 */
export async function streamed(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs: number; nice?: number },
  onLine: (line: string) => void,
): Promise<void> {
  const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs });
  if (options.nice && child.pid !== undefined) {
    try {
      setPriority(child.pid, options.nice);
    } catch {
      /* not allowed here: run at the normal priority */
    }
  }
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (!line.trim()) return;
      tail.push(line);
      if (tail.length > 5) tail.shift();
      onLine(line);
    });
  }
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`${path.basename(command)} ${args[0]} failed (${signal ?? `exit code ${code}`}): ${tail.join(' | ')}`);
}

/** Builds with `go` can take several minutes on 2 cores; none may take longer than this (ms). */
const BUILD_TIMEOUT_MS = 30 * 60_000;

/**
 * Builds `spec` with the `go` toolchain on PATH and writes the binary to `target` (through `<target>.<pid>.tmp` and a
 * rename, so an interrupted build never leaves a broken binary and two concurrent builds never mix their bytes).
 * `go` runs at a lower CPU priority (nice 10); its output lines stream to `onLine` unchanged. The `install` method
 * falls back to the `source` method when `go install` fails (a go.mod with `replace` directives).
 * @throws Error when `go` is not on PATH or the build fails (the message carries go's last lines).
 */
export async function buildGoBinary(spec: GoBinarySpec, target: string, onLine: (line: string) => void = () => {}): Promise<void> {
  const go = await onPath('go');
  if (!go) throw new Error('go is not on PATH');
  const work = await mkdtemp(path.join(tmpdir(), `skein-build-${spec.name}-`));
  const env = { ...process.env, ...spec.env };
  const pkg = spec.command ? `${spec.module}/${spec.command}` : spec.module;
  const partial = `${target}.${process.pid}.tmp`;
  const goRun = (args: string[], cwd?: string, extra: NodeJS.ProcessEnv = {}) =>
    streamed(go, args, { env: { ...env, ...extra }, cwd, timeoutMs: BUILD_TIMEOUT_MS, nice: 10 }, onLine);
  const fromSource = async () => {
    const { stdout } = await run(go, ['mod', 'download', '-json', `${spec.module}@${spec.version}`], {
      env,
      maxBuffer: 16 * 1024 * 1024,
      timeout: BUILD_TIMEOUT_MS,
    });
    const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
    if (!dir) throw new Error(`go mod download gave no folder for ${spec.module}@${spec.version}`);
    // The module cache is read-only: build in a writable copy.
    await cp(dir, path.join(work, 'src'), { recursive: true });
    await run('chmod', ['-R', 'u+w', path.join(work, 'src')]);
    await goRun(['build', '-o', partial, `./${spec.command || '.'}`], path.join(work, 'src'));
  };
  try {
    await mkdir(path.dirname(target), { recursive: true });
    if (spec.method === 'install') {
      const gobin = path.join(work, 'bin');
      await mkdir(gobin);
      try {
        await goRun(['install', '-v', `${pkg}@${spec.version}`], undefined, { GOBIN: gobin });
        // The scratch folder may be on another file system than the cache: copy, then rename within the cache.
        await copyFile(path.join(gobin, path.basename(pkg)), partial);
      } catch (err) {
        onLine(`go install failed (${(err as Error).message.slice(0, 300)}); building from a copy of the module's source instead`);
        await fromSource();
      }
    } else if (spec.method === 'tool') {
      await goRun(['mod', 'init', `skein-${spec.name}-build`], work);
      await goRun(['get', '-tool', `${pkg}@${spec.version}`], work);
      await goRun(['build', '-o', partial, pkg], work);
    } else {
      await fromSource();
    }
    await chmod(partial, 0o755);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
    await run('chmod', ['-R', 'u+w', work]).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Finds `spec`'s binary, building it once when asked: the file named by `process.env[spec.envVar]` (used as is when
 * executable), then `<binaryCacheDir()>/<spec.name>`, then (with `install`) a build from the Go module proxy into
 * that cache.
 * @param log receives progress lines, each starting with the binary's name: what is built from where and how long
 *   it is expected to take, the elapsed time every `tickMs` (default 30 000 ms), and the build's duration (s) and
 *   path at the end. Nothing is logged when the binary is given or cached.
 * @throws BinaryNotFoundError when the binary is neither given nor cached and `install` is false, or the build fails
 *   (the message names the variable to set and the Go toolchain to install).
 */
export async function locateGoBinary(
  spec: GoBinarySpec,
  options: { install?: boolean; log?: (line: string) => void; tickMs?: number } = {},
): Promise<LocatedBinary> {
  const log = options.log ?? (() => {});
  const given = process.env[spec.envVar];
  if (given && (await executable(given))) return { path: given, source: 'env' };
  const cached = path.join(binaryCacheDir(), spec.name);
  if (await executable(cached)) return { path: cached, source: 'cache' };
  const remedy = `set ${spec.envVar} to a ${spec.label} binary, or put Go (https://go.dev/dl) on PATH to build it once`;
  if (!options.install) throw new BinaryNotFoundError(`${spec.name} (${spec.label}) is not installed at ${cached}: ${remedy}`);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  log(`${spec.name}: building ${spec.label} from ${spec.module}@${spec.version} into ${binaryCacheDir()} (one time, ${spec.expected})`);
  const ticker = setInterval(() => log(`${spec.name}: still building, ${seconds()} s elapsed`), options.tickMs ?? 30_000);
  try {
    await buildGoBinary(spec, cached);
  } catch (err) {
    throw new BinaryNotFoundError(`${spec.name} (${spec.label}) could not be built after ${seconds()} s: ${(err as Error).message}. Remedy: ${remedy}`);
  } finally {
    clearInterval(ticker);
  }
  log(`${spec.name}: built in ${seconds()} s, cached at ${cached}`);
  return { path: cached, source: 'built' };
}
