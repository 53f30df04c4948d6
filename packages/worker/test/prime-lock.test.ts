import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRIME_LOCK_OPTIONS, primeLockFile, primeWebpackCache } from '../src/bundle/prime.js';

let dir: string;
const runFor = () => ({
  entryFile: path.join(dir, 'missing-entry.ts'),
  loaderOptions: {} as never,
  coreWorkflowEntry: 'x',
  roots: [dir],
  activityFiles: [],
  persistent: { dir: path.join(dir, 'webpack'), version: 'v' },
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-prime-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the webpack cache priming lock', () => {
  it('leaves the priming to the process whose lock is fresh', async () => {
    const run = runFor();
    await mkdir(primeLockFile(run));
    await primeWebpackCache(run);
    expect(existsSync(primeLockFile(run))).toBe(true);
  });

  it('takes over a lock its holder stopped refreshing, and releases it when done', async () => {
    const run = runFor();
    await mkdir(primeLockFile(run));
    const old = new Date(Date.now() - PRIME_LOCK_OPTIONS.stale - 5_000);
    await utimes(primeLockFile(run), old, old);
    await primeWebpackCache(run);
    expect(existsSync(primeLockFile(run))).toBe(false);
  });
});
