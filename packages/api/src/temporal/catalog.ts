import type { Client } from '@temporalio/client';
import { ApiError } from '../errors.js';
import { GRPC, grpcCode } from './engine.js';
import { WorkflowNotFoundError } from '@temporalio/client';

/** The reserved workflow type of the per-catalog registry (CONTRACT "Names"; same value as `@skein/core`). */
export const CATALOG_WORKFLOW_TYPE = '$catalog';

/** The workflow id of the `$catalog` registry workflow of a catalog (same rule as `@skein/core`). */
export function catalogWorkflowId(catalog: string): string {
  return `${CATALOG_WORKFLOW_TYPE}:${catalog}`;
}

/** One activity of a catalog entry. */
export interface CatalogActivity {
  name: string;
  kind: 'step' | 'evaluator';
  shared: boolean;
  type: string;
}

/** One workflow a worker registered. */
export interface CatalogWorkflow {
  name: string;
  aliases: string[];
  description: string | null;
  inputSchema: object | null;
  outputSchema: object | null;
  activities: CatalogActivity[];
}

/** A shared activity (SPEC rule 6): every workflow of the catalog may call it as `<workflow>#<name>`. */
export interface CatalogSharedActivity {
  name: string;
  kind: 'step' | 'evaluator';
  /** The package that provides it, or null for the project's own. */
  package: string | null;
}

/** The document a worker publishes in the memo of its `$catalog` workflow. */
export interface CatalogDocument {
  catalog: string;
  publishedAt: number;
  /** Each workflow lists its own steps and evaluators; shared activities are listed once, below. */
  workflows: CatalogWorkflow[];
  sharedActivities: CatalogSharedActivity[];
}

interface Entry {
  at: number;
  promise: Promise<CatalogDocument>;
}

/**
 * Answers "which workflows does catalog X serve" from the memo of its running `$catalog` workflow
 * (`handle.describe()`), cached for `ttlMs` (default 1 500 ms) per catalog.
 */
export class CatalogCache {
  readonly #client: Client;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(client: Client, ttlMs = 1_500) {
    this.#client = client;
    this.#ttlMs = ttlMs;
  }

  /**
   * The catalog document of `catalog`, from cache unless `fresh` or expired.
   * @throws ApiError `CatalogNotAvailableError` (404) when no `$catalog` workflow runs for it; `InternalError` when
   *   the engine fails.
   */
  async get(catalog: string, fresh = false): Promise<CatalogDocument> {
    const now = Date.now();
    const hit = this.#entries.get(catalog);
    if (hit && !fresh && now - hit.at < this.#ttlMs) return hit.promise;
    if (hit && fresh && now - hit.at < 50) return hit.promise; // a refresh that just happened is fresh enough
    const promise = this.#load(catalog);
    const entry = { at: now, promise };
    this.#entries.set(catalog, entry);
    promise.catch(() => {
      if (this.#entries.get(catalog) === entry) this.#entries.delete(catalog);
    });
    return promise;
  }

  /**
   * Resolves a workflow name or alias to the catalog's entry; on a miss the catalog is re-read once so a worker
   * that has just started is seen.
   * @throws ApiError `UnsupportedWorkflowError` (404) when neither the name nor an alias is registered;
   *   `CatalogNotAvailableError` (404) when the catalog is not served.
   */
  async resolve(catalog: string, workflowName: string): Promise<CatalogWorkflow> {
    const find = (doc: CatalogDocument) =>
      doc.workflows.find((w) => w.name === workflowName) ?? doc.workflows.find((w) => w.aliases.includes(workflowName));
    const found = find(await this.get(catalog));
    if (found) return found;
    const again = find(await this.get(catalog, true));
    if (again) return again;
    throw new ApiError('UnsupportedWorkflowError', {
      message: `Workflow "${workflowName}" is not registered in catalog "${catalog}"`,
    });
  }

  async #load(catalog: string): Promise<CatalogDocument> {
    const notAvailable = () => new ApiError('CatalogNotAvailableError', { message: `No worker serves catalog "${catalog}"` });
    let description;
    try {
      description = await this.#client.workflow.getHandle(catalogWorkflowId(catalog)).describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError || grpcCode(err) === GRPC.NOT_FOUND) throw notAvailable();
      throw new ApiError('InternalError', { cause: err });
    }
    const doc = description.memo?.catalog as CatalogDocument | undefined;
    if (description.status.name !== 'RUNNING' || !doc || !Array.isArray(doc.workflows)) throw notAvailable();
    return {
      catalog: typeof doc.catalog === 'string' ? doc.catalog : catalog,
      publishedAt: typeof doc.publishedAt === 'number' ? doc.publishedAt : description.startTime.getTime(),
      workflows: doc.workflows.map((w) => ({
        name: w.name,
        aliases: Array.isArray(w.aliases) ? w.aliases : [],
        description: w.description ?? null,
        inputSchema: w.inputSchema ?? null,
        outputSchema: w.outputSchema ?? null,
        activities: Array.isArray(w.activities) ? w.activities : [],
      })),
      sharedActivities: Array.isArray(doc.sharedActivities) ? doc.sharedActivities : [],
    };
  }
}
