import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort, startOnFreePorts } from './free-port.js';

/** Options of `startDevServer()`. */
export interface DevServerOptions {
  /** Path of the `temporal` binary (see `locateTemporal()`). */
  binary: string;
  /** SQLite file that keeps executions across restarts; omitted = in-memory. */
  dbFile?: string;
  /** gRPC port on 127.0.0.1; 0 or omitted picks a free port (`pickPort`). */
  port?: number;
  /** Where a port comes from when `port` is omitted; default `freePort`. */
  pickPort?: () => Promise<number>;
  /** Serve the Web UI on this port; omitted = `--headless`. */
  uiPort?: number;
  namespace?: string;
  /** Receives the server's own output, line by line. */
  onOutput?: (line: string) => void;
  /** How long to wait for the server to answer health checks, ms. Default 60 000. */
  startTimeoutMs?: number;
  /** Server dynamic configuration (`--dynamic-config-value KEY=VALUE`), each value as JSON (`'"1s"'`, `'true'`). */
  dynamicConfig?: Record<string, string>;
  /**
   * Start the server in a process group of its own (default false: its parent's). A terminal's Ctrl-C reaches the
   * whole foreground group at once; a server of its own group is stopped only by its parent (`stop()`), after what
   * depends on it, as `skein dev` does.
   */
  detached?: boolean;
  /**
   * Told each server process as soon as it is spawned (before it answers): a caller interrupted while the start is
   * under way can stop it (`detached` servers are not stopped by the terminal).
   */
  onSpawn?: (child: ChildProcess) => void;
}

/** A running dev server. */
export interface DevServer {
  /** `127.0.0.1:<port>` */
  address: string;
  namespace: string;
  process: ChildProcess;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s); resolves when it exited. */
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` on loopback and resolves once its gRPC health check answers. Without
 * `options.port` it picks a free port; another process may take that port before the server binds it (an outbound
 * connection gets any ephemeral port), and then the start is made again on another, up to 3 ports.
 * @throws Error when the process exits early or is not healthy within `startTimeoutMs` (the process is killed).
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  if (options.port) return startOnPort(options.port, options);
  return startOnFreePorts(async () => startOnPort(await (options.pickPort ?? freePort)(), options));
}

async function startOnPort(port: number, options: DevServerOptions): Promise<DevServer> {
  const namespace = options.namespace ?? 'default';
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--namespace', namespace, '--log-level', 'warn'];
  if (options.dbFile) {
    await mkdir(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const [key, value] of Object.entries(options.dynamicConfig ?? {})) args.push('--dynamic-config-value', `${key}=${value}`);
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  const child = spawn(options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  options.onSpawn?.(child);
  const recent: string[] = [];
  // The server prints "Server:  <host:port>" once it listens. Until then a health check could reach another
  // server on the same port (this one then fails to bind and exits): never take that for our own.
  let announced = false;
  const spawnedAt = Date.now();
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      if (/^Server:\s/.test(line)) announced = true;
      recent.push(line);
      if (recent.length > 3) recent.shift();
      options.onOutput?.(line);
    }
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = `127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal server start-dev on port ${port} exited with code ${child.exitCode}: ${recent.join(' | ')}`);
    if (!announced && Date.now() - spawnedAt < 5000) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return { address, namespace, process: child, stop };
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop();
  throw new Error(`temporal dev server not healthy after ${options.startTimeoutMs ?? 60_000} ms: ${(lastError as Error)?.message}`);
}
