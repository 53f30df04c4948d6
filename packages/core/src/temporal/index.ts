/**
 * `@skein/core/temporal`: the worker's own Temporal client, for steps and evaluators. Node only (it loads
 * `@temporalio/client`): importing it into workflow code is a validation error (`workflow/no-node-modules`).
 */
import { Context } from '@temporalio/activity';
import { Client, type Connection, type WorkflowHandle } from '@temporalio/client';
import { FatalError } from '../shared/errors.js';

/** The worker's connection settings, installed by the worker once it has connected. */
export interface WorkerClientConfig {
  /** The worker's connection (its address, TLS and API key from the environment configuration). */
  connection: Connection;
  namespace: string;
}

const KEY = Symbol.for('skein.workerClient');
const g = globalThis as unknown as Record<symbol, { config?: WorkerClientConfig; client?: Client } | undefined>;
/** One state per process, shared by every copy of core (the worker's and the project's). */
const state = (g[KEY] ??= {});

/**
 * Installs the worker's connection for `createTemporalClient` and `getCurrentWorkflowHandle` (the worker does this
 * once connected). The connection is shared: clients made from it cannot close it.
 * @returns a function that removes it again, unless another worker of the process has installed its own since.
 */
export function configureWorkerClient(config: WorkerClientConfig): () => void {
  state.config = config;
  state.client = undefined;
  return () => {
    if (state.config !== config) return;
    state.config = undefined;
    state.client = undefined;
  };
}

function guarded(connection: Connection): Connection {
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (property === 'close') {
        return async () => {
          throw new FatalError('The Temporal connection is owned by the worker and cannot be closed');
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * A Temporal client on the worker's own connection and namespace (`TEMPORAL_ADDRESS`, `TEMPORAL_NAMESPACE`,
 * TLS and API key as the worker reads them). Closing its connection is refused: the worker owns it.
 * @throws FatalError when called outside a worker (plain Node, unit tests) or before the worker has connected.
 */
export function createTemporalClient(): Client {
  const config = state.config;
  if (!config) throw new FatalError('createTemporalClient() works only inside a Skein worker, once it has connected to Temporal');
  return new Client({ connection: guarded(config.connection), namespace: config.namespace });
}

/**
 * The handle of the run that scheduled the running step or evaluator (its workflow id and run id), on the worker's
 * connection: `getCurrentWorkflowHandle().signal(...)`, `.describe()`, ….
 * @throws FatalError when called outside a step or evaluator running on a worker.
 */
export function getCurrentWorkflowHandle(): WorkflowHandle {
  let execution: { workflowId: string; runId: string } | undefined;
  try {
    execution = Context.current().info.workflowExecution;
  } catch {
    execution = undefined;
  }
  if (!execution || !state.config) throw new FatalError('getCurrentWorkflowHandle() works only in a step or evaluator running on a Skein worker');
  state.client ??= new Client({ connection: guarded(state.config.connection), namespace: state.config.namespace });
  return state.client.workflow.getHandle(execution.workflowId, execution.runId);
}
