import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@skein/dev-server';
import { spawnSkein, type CliProcess } from '../support/processes.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('skein dev: dev server + worker + API in one command', () => {
  it('serves the examples over HTTP, Ctrl-C stops all three leaving no process behind, and executions survive a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'skein-dev-data-'));
    const [apiPort, temporalPort] = [await freePort(), await freePort()];
    const start = () =>
      spawnSkein(
        ['dev', 'examples', '--temporal-port', String(temporalPort), '--data-dir', dataDir],
        { PORT: String(apiPort), TEMPORAL_ADDRESS: '' },
        { processGroup: true },
      );
    const stop = async (dev: CliProcess) => {
      const temporalPids = await pidsListeningOn(temporalPort);
      expect(temporalPids.length).toBeGreaterThan(0);
      const workerPids = (await childPids(dev.child.pid!)).filter((pid) => !temporalPids.includes(pid));
      expect(workerPids).toHaveLength(1);
      // As a terminal's Ctrl-C does: SIGINT to the whole foreground process group.
      process.kill(-dev.child.pid!, 'SIGINT');
      // The dev server is stopped last, by skein dev, not by the terminal's signal: it outlives the worker.
      while (alive(workerPids[0]!)) {
        for (const pid of temporalPids) expect(alive(pid), 'the dev server stopped before the worker').toBe(true);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await dev.exited).toBe(0);
      for (const pid of temporalPids) expect(alive(pid)).toBe(false);
    };
    const workflowId = `dev-restart-${Date.now()}`;
    let dev = start();
    try {
      await dev.waitFor(/Skein is up/, 120_000);
      const res = await fetch(`http://127.0.0.1:${apiPort}/workflow/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ workflowName: 'welcome', workflowId, input: { name: 'ada' } }),
      });
      expect(await res.json()).toMatchObject({ status: 'completed', output: { message: 'Welcome, Ada!' } });
      await stop(dev);

      dev = start();
      await dev.waitFor(/Skein is up/, 120_000);
      const again = await fetch(`http://127.0.0.1:${apiPort}/workflow/${workflowId}/result`);
      expect(await again.json()).toMatchObject({ workflowId, status: 'completed', output: { message: 'Welcome, Ada!' } });
      await stop(dev);
    } finally {
      if (dev.child.exitCode === null) dev.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

/** Pids of the live child processes of `parent` (from /proc/<pid>/stat). */
async function childPids(parent: number): Promise<number[]> {
  const { readFile, readdir } = await import('node:fs/promises');
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: the command may hold spaces and parentheses, the fields after its last ")" do not.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === parent && state !== 'Z') pids.push(Number(entry));
  }
  return pids;
}

/** Pids of processes listening on a TCP port on loopback (from /proc/net/tcp and /proc/<pid>/fd). */
async function pidsListeningOn(port: number): Promise<number[]> {
  const { readFile, readdir, readlink } = await import('node:fs/promises');
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A') inodes.add(cols[9]!);
    }
  }
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const link = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '');
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!)) {
        pids.push(Number(entry));
        break;
      }
    }
  }
  return pids;
}
