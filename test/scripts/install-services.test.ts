import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/stack.js';

/**
 * `npm run services:install` (scripts/install-services.mjs): the by-hand form of the system tier's setup. Run against
 * a cache of stand-in binaries and a PATH without Go, so nothing is built.
 */
let cache: string;
const script = path.join(repoRoot, 'scripts/install-services.mjs');
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { PATH: path.dirname(process.execPath), HOME: cache, XDG_CACHE_HOME: cache, ...env },
  });

async function cached(name: string): Promise<string> {
  const file = path.join(cache, 'skein', 'bin', name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

beforeEach(async () => {
  cache = await mkdtemp(path.join(tmpdir(), 'skein-services-'));
});
afterEach(async () => rm(cache, { recursive: true, force: true }));

describe('npm run services:install', () => {
  it('prints each binary found in the cache, or named by its variable, and exits 0', async () => {
    const weed = await cached('weed');
    const jaeger = await cached('jaeger');
    const given = path.join(cache, 'my-prometheus');
    await writeFile(given, '#!/bin/sh\n');
    await chmod(given, 0o755);
    const res = run([], { PROMETHEUS_PATH: given });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([`weed ${weed}`, `jaeger ${jaeger}`, `prometheus ${given}`]);
  });

  it('installs only the services named', async () => {
    const jaeger = await cached('jaeger');
    const res = run(['jaeger']);
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(`jaeger ${jaeger}\n`);
  });

  it('without the binary and without Go, exits 1 naming what to do', () => {
    const res = run(['weed']);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('install-services: weed: building SeaweedFS from github.com/seaweedfs/seaweedfs@');
    expect(res.stderr).toContain(
      'go is not on PATH. Remedy: set SEAWEEDFS_WEED_PATH to a SeaweedFS binary, or put Go (https://go.dev/dl) on PATH to build it once',
    );
  });

  it('refuses an unknown service with exit code 2, naming the known ones', () => {
    const res = run(['redis']);
    expect(res.status).toBe(2);
    expect(res.stderr.trim()).toBe('install-services: unknown service redis (known: weed, jaeger, prometheus)');
  });
});
