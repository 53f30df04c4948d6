/**
 * `createTestEnv()`: a real Temporal dev server (ephemeral, on a free port), a Skein worker on a project or a
 * package, and a client to run its workflows, for tests that need the engine (retries, timers, signals, replay).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { pino, type Logger } from 'pino';
import { SKEIN, type SkeinWorkflow } from '@skein/core';
import { locateTemporal, startDevServer, type DevServer } from '@skein/dev-server';
import { startWorker, type SkeinWorker } from '@skein/worker';
import type { RecordedHistory } from './types.js';

/**
 * A replacement for a step or an evaluator: gets the input as sent, answers the output (or throws). Its parameter
 * may carry any type (`({ name }: { name: string }) => ...`): the input is whatever the workflow sends.
 */
export type StepMock = (input: never) => unknown;

/** Options of `createTestEnv()`. */
export interface TestEnvOptions {
  /** The project (or workflow package) whose workflows the worker serves; default `process.cwd()`. */
  projectDir?: string;
  /** Steps and evaluators replaced by name from the start (see `TestEnv.mockSteps`; an unknown name throws). */
  mockSteps?: Record<string, StepMock>;
  /** `host:port` of a running Temporal server to use instead of starting one (default: start one). */
  temporalAddress?: string;
  /** Catalog (task queue); default a fresh `test-<uuid>`, so parallel environments never share one. */
  catalog?: string;
  /** Where the worker writes trace files; default none (`false`). */
  traceDir?: string | false;
  /** Logger of the worker; default silent. */
  logger?: Logger;
}

/** A workflow given by its definition (typed input and output) or by its registered name. */
export type WorkflowRef<I, O> = SkeinWorkflow<I, O> | string;

/** A running test environment. */
export interface TestEnv {
  /** `host:port` of the Temporal server. */
  address: string;
  catalog: string;
  /** Temporal's client on the environment's namespace. */
  client: Client;
  worker: SkeinWorker;
  /**
   * Runs a workflow to its end on the engine and answers its output.
   * @throws WorkflowFailedError (from `@temporalio/client`) when the run fails.
   */
  run<I, O>(workflow: WorkflowRef<I, O>, input?: I, options?: { workflowId?: string }): Promise<O>;
  /** Starts a workflow and answers its handle (signal, query, update, result, history). */
  start<I, O>(workflow: WorkflowRef<I, O>, input?: I, options?: { workflowId?: string }): Promise<WorkflowHandle>;
  /** A finished (or running) workflow's history, in the shape `replayHistories()` takes. */
  history(workflowId: string): Promise<RecordedHistory>;
  /**
   * Replaces steps and evaluators by name (`{ composeGreeting: () => 'Hi.' }`) for the runs that follow.
   * @returns a function that restores what was there before.
   * @throws TypeError naming the project's steps and evaluators when a name is none of them.
   */
  mockSteps(mocks: Record<string, StepMock>): () => void;
  /** Stops the worker, then the dev server it started; safe to call twice. */
  close(): Promise<void>;
}

/**
 * The registered name of a workflow reference.
 * @throws TypeError when `workflow` is neither a string nor what `workflow()` returned.
 */
export function workflowName(workflow: WorkflowRef<unknown, unknown>): string {
  if (typeof workflow === 'string') return workflow;
  const def = (workflow as unknown as Record<symbol, { kind?: string; name?: string } | undefined>)[SKEIN];
  if (def?.kind !== 'workflow' || !def.name) throw new TypeError('not a workflow: pass what workflow() returned, or the workflow name');
  return def.name;
}

/**
 * Starts a test environment: a dev server on a free port (the `temporal` binary from `TEMPORAL_CLI_PATH`, `PATH`
 * or Skein's cache, installed there if missing), unless `temporalAddress` names one, and a worker on the project.
 * @throws TemporalNotFoundError when no `temporal` binary is found or installed; WorkerStartupError when the
 *   project does not validate or load (the message lists every finding). Whatever started is stopped first.
 */
export async function createTestEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  const projectDir = path.resolve(options.projectDir ?? process.cwd());
  const catalog = options.catalog ?? `test-${randomUUID()}`;
  const mocks = new Map<string, (input: unknown) => Promise<unknown>>();
  const setMock = (name: string, fn: StepMock) => mocks.set(name, async (input) => (fn as (input: unknown) => unknown)(input));

  let server: DevServer | undefined;
  let connection: Connection | undefined;
  let worker: SkeinWorker | undefined;
  const stopAll = async () => {
    await worker?.shutdown();
    await connection?.close();
    await server?.stop();
  };
  try {
    let address = options.temporalAddress;
    if (!address) {
      const temporal = await locateTemporal({ install: true });
      server = await startDevServer({ binary: temporal.path });
      address = server.address;
    }
    worker = await startWorker({
      projectDir,
      catalog,
      engine: { address },
      logger: options.logger ?? pino({ level: 'silent' }),
      traceDir: options.traceDir ?? false,
      activityOverrides: mocks,
      engineCheck: { intervalMs: 60_000 },
    });
    connection = await Connection.connect({ address });
    const client = new Client({ connection });
    const start = <I, O>(workflow: WorkflowRef<I, O>, input?: I, opts: { workflowId?: string } = {}) =>
      client.workflow.start(workflowName(workflow as WorkflowRef<unknown, unknown>), {
        taskQueue: catalog,
        workflowId: opts.workflowId ?? `${workflowName(workflow as WorkflowRef<unknown, unknown>)}-${randomUUID()}`,
        args: [input],
      });
    let closed: Promise<void> | undefined;
    const env: TestEnv = {
      address,
      catalog,
      client,
      worker,
      start,
      async run<I, O>(workflow: WorkflowRef<I, O>, input?: I, opts?: { workflowId?: string }): Promise<O> {
        return (await (await start(workflow, input, opts)).result()) as O;
      },
      async history(workflowId) {
        return { workflowId, history: await client.workflow.getHandle(workflowId).fetchHistory() };
      },
      mockSteps(replacements) {
        const known = new Set([
          ...worker!.manifest.workflows.flatMap((w) => w.activities.map((a) => a.name)),
          ...worker!.manifest.sharedActivities.map((a) => a.name),
        ]);
        const unknown = Object.keys(replacements).filter((name) => !known.has(name));
        if (unknown.length > 0)
          throw new TypeError(`mockSteps: no step or evaluator named ${unknown.join(', ')}; the project has ${[...known].sort().join(', ')}`);
        const before = new Map([...Object.keys(replacements)].map((name) => [name, mocks.get(name)]));
        for (const [name, fn] of Object.entries(replacements)) setMock(name, fn);
        return () => {
          for (const [name, fn] of before) {
            if (fn) mocks.set(name, fn);
            else mocks.delete(name);
          }
        };
      },
      close() {
        closed ??= stopAll();
        return closed;
      },
    };
    if (options.mockSteps) env.mockSteps(options.mockSteps);
    return env;
  } catch (err) {
    await stopAll().catch(() => {});
    throw err;
  }
}
