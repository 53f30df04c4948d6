import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the real Temporal dev server shared by every test file of the run that asks for it. */
    temporalAddress: string;
    /** A folder of the run for local traces (`sharedTraceDir`), removed when the run ends. */
    traceRoot: string;
  }
}

/** What every project of one Vitest run shares: the dev server, the trace folder, and how many projects hold them. */
interface Shared {
  ready: Promise<{ server: DevServer; traceRoot: string }>;
  holders: number;
}

// Vitest loads this file once per project that names it (each project has its own module graph), in one process:
// the run's state lives on globalThis, so `integration` and `integration-isolated` (and the system projects) share
// one dev server instead of starting one each.
const key = Symbol.for('skein.test.global-setup');
const registry = globalThis as { [key]?: Shared };

/**
 * Where the shared dev server's own output goes, rewritten by each run: kept out of the test report, and read when a
 * run's files fail on the engine's side (a persistence error, a server that stopped answering).
 */
const SERVER_LOG = path.resolve(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'skein-test', 'temporal-dev-server.log');

async function begin(): Promise<{ server: DevServer; traceRoot: string }> {
  const traceRoot = await mkdtemp(path.join(tmpdir(), 'skein-test-traces-'));
  try {
    const temporal = await locateTemporal({ install: true, log: (l) => console.log(`[temporal] ${l}`) });
    mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
    writeFileSync(SERVER_LOG, '');
    // A line at a time, synchronously: the server logs warnings and errors only, and nothing is lost at exit.
    const server = await startDevServer({ binary: temporal.path, onOutput: (line) => appendFileSync(SERVER_LOG, `${line}\n`) });
    console.log(`[temporal] the shared dev server listens at ${server.address}; its output: ${path.relative(process.cwd(), SERVER_LOG)}`);
    return { server, traceRoot };
  } catch (err) {
    await rm(traceRoot, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Starts one real Temporal dev server (in-memory SQLite, loopback, random port) for the whole run, and makes the
 * run's trace folder; every project whose global setup names this file is given the same two. The binary comes from
 * `locateTemporal({ install: true })` (TEMPORAL_CLI_PATH, PATH, cache, registries). The last project's teardown stops
 * the server and removes the folder.
 * @throws when the binary can be neither found nor installed, or the server does not start
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (registry[key] ??= { ready: begin(), holders: 0 });
  shared.holders++;
  const release = async (): Promise<void> => {
    if (--shared.holders > 0) return;
    delete registry[key];
    const { server, traceRoot } = await shared.ready;
    try {
      await server.stop();
    } finally {
      await rm(traceRoot, { recursive: true, force: true });
    }
  };
  try {
    const { server, traceRoot } = await shared.ready;
    project.provide('temporalAddress', server.address);
    project.provide('traceRoot', traceRoot);
  } catch (err) {
    if (--shared.holders === 0) delete registry[key];
    throw err;
  }
  return release;
}
