/**
 * The own dev server of `skein dev` runs in a process group of its own (a terminal's Ctrl-C reaches `skein dev`
 * only, which stops the worker before the engine). A `skein dev` killed outright (`kill -9` of its group, an IDE's
 * stop button) then leaves that server running, holding its port and its SQLite file. So the server's pid is kept
 * in the data directory while it runs, with the pid of the `skein dev` that owns it, and the next `skein dev` on that
 * directory stops a server left running before it starts its own. A server whose `skein dev` still runs is not left
 * over: the second `skein dev` refuses to start instead of taking the first one's engine away.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file naming the running server: `<dataDir>/temporal.pid` (its pid, the SQLite file it serves, its owner's pid). */
export function serverPidFile(dataDir: string): string {
  return path.join(dataDir, 'temporal.pid');
}

/**
 * Records the server process `pid` serving `dbFile`, started by the `skein dev` process `owner` (default this one).
 * Best effort: a data directory that cannot be written is no error.
 */
export function recordServer(dataDir: string, pid: number, dbFile: string, owner = process.pid): void {
  try {
    writeFileSync(serverPidFile(dataDir), `${pid}\n${dbFile}\n${owner}\n`);
  } catch {
    // Nothing to stop next time.
  }
}

/** Forgets the recorded server (after it stopped). */
export function forgetServer(dataDir: string): void {
  rmSync(serverPidFile(dataDir), { force: true });
}

/** The command line of process `pid`, or undefined when it is not running (or cannot be read). */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // No /proc (macOS): ask ps.
  }
  try {
    return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Thrown when the recorded server still belongs to a running `skein dev`; `message` names it and the remedies. */
export class DevServerInUseError extends Error {
  override name = 'DevServerInUseError';
}

/**
 * Stops the server an earlier `skein dev` on `dataDir` left running: the recorded pid, when that process is still a
 * Temporal server on the recorded SQLite file (a pid reused by another process is left alone). SIGTERM, then SIGKILL
 * after `graceMs`. Forgets the record either way.
 * @returns the pid stopped, or undefined when there was none
 * @throws DevServerInUseError when the `skein dev` that started the server still runs (the record is kept)
 */
export async function stopLeftoverServer(dataDir: string, graceMs = 5000): Promise<number | undefined> {
  let recorded: string;
  try {
    recorded = readFileSync(serverPidFile(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  const [pidText, dbFile, ownerText] = recorded.split('\n');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !dbFile) return void forgetServer(dataDir);
  const command = commandLineOf(pid);
  if (command === undefined || !command.includes('start-dev') || !command.includes(dbFile)) return void forgetServer(dataDir);
  const owner = Number(ownerText);
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && (commandLineOf(owner) ?? '').includes('skein')) {
    const port = /--port[= ](\d+)/.exec(command)?.[1];
    throw new DevServerInUseError(
      `another skein dev (pid ${owner}) is running with the data directory ${dataDir}: its dev server (pid ${pid}) holds that directory's database. ` +
        `Stop it first (Ctrl-C in its terminal)${port ? `, or share its server: --temporal-address 127.0.0.1:${port}` : ''}`,
    );
  }
  forgetServer(dataDir);
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return undefined;
  }
  const deadline = Date.now() + graceMs;
  while (commandLineOf(pid) !== undefined) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It exited meanwhile.
      }
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pid;
}
