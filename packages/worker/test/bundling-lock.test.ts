import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUNDLING_LOCK_STALE_MS, holdBundling } from '../src/bundle/bundling-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-bundling-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A lock folder and owner file as a holder that is process `pid` of `host` leaves them. */
async function heldBy(pid: number, host = hostname()) {
  await mkdir(path.join(dir, 'key.bundling'));
  await writeFile(path.join(dir, 'key.bundling.owner'), JSON.stringify({ pid, host }));
}

/** The pid of a process that has exited. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

describe('holdBundling', () => {
  it('lets one holder of a key at a time bundle: a second waits, ends its work once, and gets the lock on release', async () => {
    const first = await holdBundling(dir, 'key');
    expect(first.waited).toBe(false);
    const beforeWait = vi.fn(async () => {});
    let secondHeld = false;
    const second = holdBundling(dir, 'key', beforeWait).then((held) => ((secondHeld = true), held));
    await vi.waitFor(() => expect(beforeWait).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(secondHeld).toBe(false);
    // Another key is not held by it.
    const other = await holdBundling(dir, 'other-key');
    expect(other.waited).toBe(false);
    await first.release();
    const held = await second;
    expect(held.waited).toBe(true);
    expect(beforeWait).toHaveBeenCalledTimes(1);
    await held.release();
    await other.release();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes over at once from a holder of this machine that has exited', async () => {
    await heldBy(await exitedPid());
    const started = Date.now();
    const held = await holdBundling(dir, 'key');
    expect(held.waited).toBe(true);
    expect(Date.now() - started).toBeLessThan(BUNDLING_LOCK_STALE_MS / 2);
    await held.release();
  });

  it('waits for a live holder, and for a holder of another machine, until the lock is gone', async () => {
    for (const owner of [{ pid: process.ppid }, { pid: await exitedPid(), host: `not-${hostname()}` }]) {
      await heldBy(owner.pid, owner.host);
      let held = false;
      const waiting = holdBundling(dir, 'key').then((h) => ((held = true), h));
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(held).toBe(false);
      await rm(path.join(dir, 'key.bundling.owner'));
      await rm(path.join(dir, 'key.bundling'), { recursive: true });
      await (await waiting).release();
    }
  });

  it('bundles unlocked where the lock cannot be made', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, '');
    const held = await holdBundling(path.join(file, 'cache'), 'key');
    expect(held.waited).toBe(false);
    await held.release();
  });
});
