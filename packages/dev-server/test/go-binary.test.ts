import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BinaryNotFoundError, locateGoBinary, type GoBinarySpec } from '../src/go-binary.js';

let dir: string;

const spec = (method: GoBinarySpec['method']): GoBinarySpec => ({
  name: 'svc',
  label: 'Service',
  envVar: 'SKEIN_TEST_SVC_PATH',
  module: 'example.com/svc',
  command: 'cmd/svc',
  version: 'v1.2.3',
  method,
  expected: 'a moment',
});

/**
 * A stand-in `go` on PATH that records each call in `calls.log` and writes, for every route a build can take, a
 * binary printing which route made it. `mod download` answers with a read-only module folder, as Go's cache does.
 * `STANDIN_GO_INSTALL_FAILS=1` makes `go install` fail as it does on a go.mod with replace directives.
 */
async function standInGo(): Promise<void> {
  const mod = path.join(dir, 'modcache', 'svc@v1.2.3');
  await mkdir(path.join(mod, 'cmd', 'svc'), { recursive: true });
  await writeFile(path.join(mod, 'cmd', 'svc', 'main.go'), 'package main\n');
  await promisify(execFile)('chmod', ['-R', 'a-w', mod]);
  const script = `#!/bin/sh
echo "$*" >> "${dir}/calls.log"
bin() { printf '#!/bin/sh\\necho %s\\n' "$2" > "$1"; chmod +x "$1"; }
case "$1" in
  install)
    if [ -n "$STANDIN_GO_INSTALL_FAILS" ]; then echo "go: example.com/svc@v1.2.3: contains replace directives" >&2; exit 1; fi
    echo "example.com/svc/cmd/svc" >&2; bin "$GOBIN/svc" install ;;
  mod)
    if [ "$2" = download ]; then echo '{"Path":"example.com/svc","Dir":"${mod}"}'; fi
    if [ "$2" = init ]; then echo "module $3" > go.mod; fi ;;
  get) ;;
  build)
    case "$4" in
      ./*) touch ./writable-check || exit 3; [ -f "$4/main.go" ] || exit 4; bin "$3" source ;;
      *) [ -f go.mod ] || exit 5; bin "$3" tool ;;
    esac ;;
esac
`;
  await writeFile(path.join(dir, 'go'), script);
  await chmod(path.join(dir, 'go'), 0o755);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-go-binary-'));
  vi.stubEnv('PATH', `${dir}:/usr/bin:/bin`);
  vi.stubEnv('XDG_CACHE_HOME', path.join(dir, 'cache'));
  vi.stubEnv('SKEIN_TEST_SVC_PATH', undefined);
  vi.stubEnv('STANDIN_GO_INSTALL_FAILS', undefined);
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await promisify(execFile)('chmod', ['-R', 'u+w', dir]);
  await rm(dir, { recursive: true, force: true });
});

const cached = () => path.join(dir, 'cache', 'skein', 'bin', 'svc');
const made = async (file: string) => (await promisify(execFile)(file)).stdout.trim();

describe('locateGoBinary', () => {
  it.each([
    ['install', 'install'],
    ['tool', 'tool'],
    ['source', 'source'],
  ] as const)('builds with method %s once, says what, how long and where, then answers from the cache', async (method, route) => {
    await standInGo();
    const lines: string[] = [];
    const found = await locateGoBinary(spec(method), { install: true, log: (l) => lines.push(l) });
    expect(found).toEqual({ path: cached(), source: 'built' });
    expect(await made(cached())).toBe(route);
    expect(lines[0]).toBe(`svc: building Service from example.com/svc@v1.2.3 into ${path.dirname(cached())} (one time, a moment)`);
    expect(lines.at(-1)).toMatch(new RegExp(`^svc: built in \\d+ s, cached at ${cached()}$`));
    // Nothing half-written is left beside the binary.
    expect(await readdir(path.dirname(cached()))).toEqual(['svc']);

    const again: string[] = [];
    await expect(locateGoBinary(spec(method), { install: true, log: (l) => again.push(l) })).resolves.toEqual({ path: cached(), source: 'cache' });
    expect(again).toEqual([]);
    expect((await readFile(path.join(dir, 'calls.log'), 'utf8')).split('\n').filter((l) => l.startsWith('build') || l.startsWith('install'))).toHaveLength(1);
  });

  it('builds from a writable copy of the source when go install refuses the module', async () => {
    await standInGo();
    vi.stubEnv('STANDIN_GO_INSTALL_FAILS', '1');
    const found = await locateGoBinary(spec('install'), { install: true });
    expect(await made(found.path)).toBe('source');
  });

  it('uses the binary its variable names, without building', async () => {
    await standInGo();
    const given = path.join(dir, 'given-svc');
    await writeFile(given, '#!/bin/sh\necho given\n');
    await chmod(given, 0o755);
    vi.stubEnv('SKEIN_TEST_SVC_PATH', given);
    await expect(locateGoBinary(spec('tool'), { install: true })).resolves.toEqual({ path: given, source: 'env' });
    await expect(readFile(path.join(dir, 'calls.log'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('without install, names the cache, the variable and Go as remedies', async () => {
    const err = await locateGoBinary(spec('tool')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryNotFoundError);
    expect((err as Error).message).toBe(
      `svc (Service) is not installed at ${cached()}: set SKEIN_TEST_SVC_PATH to a Service binary, or put Go (https://go.dev/dl) on PATH to build it once`,
    );
  });

  it('without a Go toolchain, fails with the remedy and leaves nothing in the cache', async () => {
    vi.stubEnv('PATH', '/nonexistent');
    const err = await locateGoBinary(spec('source'), { install: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BinaryNotFoundError);
    expect((err as Error).message).toMatch(/^svc \(Service\) could not be built after \d+ s: go is not on PATH\. Remedy: set SKEIN_TEST_SVC_PATH/);
    await expect(readdir(path.dirname(cached()))).rejects.toThrow(/ENOENT/);
  });

  it('reports the elapsed time while a build runs', async () => {
    await standInGo();
    await writeFile(path.join(dir, 'go'), `#!/bin/sh\nsleep 0.3\n${(await readFile(path.join(dir, 'go'), 'utf8')).replace('#!/bin/sh\n', '')}`);
    const lines: string[] = [];
    await locateGoBinary(spec('tool'), { install: true, log: (l) => lines.push(l), tickMs: 100 });
    expect(lines.some((l) => /^svc: still building, \d+ s elapsed$/.test(l))).toBe(true);
  });
});
