/**
 * `skein dev`'s record of its own dev server (leftover-server.ts): a server an earlier `skein dev` left running is
 * stopped by the next one on the same data directory, and a recorded pid that now names another process is left
 * alone. The "server" here is a Node process whose command line has the shape of the dev server's.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DevServerInUseError, recordServer, serverPidFile, stopLeftoverServer } from '../src/dev/leftover-server.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'skein-leftover-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** A long-running process whose command line reads like `temporal server start-dev … --db-filename <dbFile>`. */
function fakeServer(dbFile: string) {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server', 'start-dev', '--db-filename', dbFile], { stdio: 'ignore' });
}

describe('stopLeftoverServer', () => {
  it('stops the recorded server of this data directory, and forgets it', async () => {
    const dbFile = path.join(dataDir, 'temporal.sqlite');
    const server = fakeServer(dbFile);
    const exited = once(server, 'exit');
    recordServer(dataDir, server.pid!, dbFile);
    expect(await stopLeftoverServer(dataDir)).toBe(server.pid);
    const [, signal] = await exited;
    expect(signal).toBe('SIGTERM');
    expect(existsSync(serverPidFile(dataDir))).toBe(false);
    expect(await stopLeftoverServer(dataDir)).toBeUndefined();
  });

  it('leaves alone a recorded pid that is another process now, or one serving another file', async () => {
    const other = fakeServer(path.join(dataDir, 'elsewhere.sqlite'));
    try {
      recordServer(dataDir, other.pid!, path.join(dataDir, 'temporal.sqlite'));
      expect(await stopLeftoverServer(dataDir)).toBeUndefined();
      recordServer(dataDir, process.pid, path.join(dataDir, 'temporal.sqlite'));
      expect(await stopLeftoverServer(dataDir)).toBeUndefined();
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('refuses, keeping the server and its record, while the skein dev that started it still runs; stops it once that one is gone', async () => {
    const dbFile = path.join(dataDir, 'temporal.sqlite');
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'server', 'start-dev', '--port', '17999', '--db-filename', dbFile], {
      stdio: 'ignore',
    });
    // A process whose command line reads like `node …/skein.js dev`.
    const owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'skein.js', 'dev'], { stdio: 'ignore' });
    try {
      recordServer(dataDir, server.pid!, dbFile, owner.pid!);
      const refused = stopLeftoverServer(dataDir);
      await expect(refused).rejects.toThrow(DevServerInUseError);
      await expect(refused).rejects.toThrow(
        `another skein dev (pid ${owner.pid}) is running with the data directory ${dataDir}: its dev server (pid ${server.pid}) holds that directory's database. Stop it first (Ctrl-C in its terminal), or share its server: --temporal-address 127.0.0.1:17999`,
      );
      expect(server.exitCode).toBeNull();
      expect(existsSync(serverPidFile(dataDir))).toBe(true);
      // The owner killed outright: its server is left over now, and stopped.
      const ownerExited = once(owner, 'exit');
      owner.kill('SIGKILL');
      await ownerExited;
      const exited = once(server, 'exit');
      expect(await stopLeftoverServer(dataDir)).toBe(server.pid);
      await exited;
    } finally {
      owner.kill('SIGKILL');
      server.kill('SIGKILL');
    }
  });
});
