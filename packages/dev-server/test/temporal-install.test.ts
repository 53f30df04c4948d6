import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { locateTemporal } from '../src/locate.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-install-'));
  // A stand-in `go` on PATH: prints progress like `go install -v` and installs a `temporal` that answers --version.
  await writeFile(
    path.join(dir, 'go'),
    [
      '#!/bin/sh',
      'echo "go: downloading github.com/temporalio/cli v1.5.1" >&2',
      'echo "github.com/temporalio/cli/cmd/temporal" >&2',
      'printf \'#!/bin/sh\\necho "temporal version 1.5.1"\\n\' > "$GOBIN/temporal"',
      'chmod +x "$GOBIN/temporal"',
    ].join('\n'),
  );
  await chmod(path.join(dir, 'go'), 0o755);
  vi.stubEnv('TEMPORAL_CLI_PATH', undefined);
  vi.stubEnv('PATH', `${dir}:/usr/bin:/bin`);
  vi.stubEnv('XDG_CACHE_HOME', path.join(dir, 'cache'));
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('locateTemporal({ install: true }): a first run that explains itself', () => {
  it("says what it installs and why, streams go's own output, and says where the binary is cached", async () => {
    const lines: string[] = [];
    const found = await locateTemporal({ install: true, log: (l) => lines.push(l) });
    const cached = path.join(dir, 'cache', 'skein', 'bin', 'temporal');
    expect(found).toMatchObject({ path: cached, source: 'go install', version: 'temporal version 1.5.1' });
    expect(lines[0]).toMatch(/not installed yet\. Installing it once into .*cache\/skein\/bin; the first time takes a few minutes/);
    expect(lines).toContain('running: go install github.com/temporalio/cli/cmd/temporal@v1.5.1');
    expect(lines).toContain('  go: downloading github.com/temporalio/cli v1.5.1');
    expect(lines).toContain('  github.com/temporalio/cli/cmd/temporal');
    expect(lines.at(-1)).toMatch(new RegExp(`^temporal installed via go install in \\d+ s; cached at ${cached}$`));

    // The next run finds it in the cache without installing anything.
    const again: string[] = [];
    expect(await locateTemporal({ install: true, log: (l) => again.push(l) })).toMatchObject({ path: cached, source: 'cache' });
    expect(again).toEqual([]);
  });
});
