import { createHash } from 'node:crypto';
import {
  CATALOG_VERSION_WORKFLOW_TYPE,
  CATALOG_WORKFLOW_TYPE,
  RECORDS_TASK_QUEUE,
  activityType,
  catalogVersionWorkflowId,
  catalogWorkflowId,
} from '@skein/core';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { DeclaredSchedule, LoadedProject } from '../host/load.js';
import { syncDeclaredSchedules } from './schedules.js';

/**
 * The catalog a worker serves, as the API answers it (`GET /workflow/catalog`): held whole in the memo of the build's
 * record `$catalog:<catalog>@<buildId>`, its head in the memo of the catalog's `$catalog` execution (`CatalogHead`).
 * JSON Schemas are generated from the zod schemas.
 */
export interface CatalogDocument {
  catalog: string;
  /** Epoch ms of publication. */
  publishedAt: number;
  /**
   * Hash of what the worker serves (workflows, their schemas and activities, shared activities): SHA-256, hex.
   * Two builds may share it (a code-only change); the build ID tells them apart.
   */
  version: string;
  /** Temporal identity of the worker that published the document (as `DescribeTaskQueue` lists its pollers). */
  identity: string;
  /** The Worker Versioning deployment version that serves this document: deployment name and build ID. */
  deployment?: { name: string; buildId: string };
  /** The project identity of that build (`SKEIN_PROJECT`, else package.json's `name`); not part of `version`. */
  project?: string;
  /**
   * The local trace folder of the worker that publishes this document (absolute path; the build ID leaves it out,
   * and the build's lease lists the folders of its other live workers), never a folder taken over from an earlier
   * document: an API on the same machine reads a run's local trace file only inside a folder the live workers of the
   * current build advertise. Not part of `version`.
   */
  traceDirs?: string[];
  workflows: Array<{
    name: string;
    aliases: string[];
    description: string | null;
    inputSchema: object | null;
    outputSchema: object | null;
    /** The workflow's own steps and evaluators (`shared: false`), with their activity types. */
    activities: Array<{ name: string; kind: 'step' | 'evaluator'; shared: boolean; type: string }>;
    /** The schedules the workflow declares (kept in the engine while this document is the current build's). */
    schedules?: DeclaredSchedule[];
  }>;
  /**
   * Shared activities, listed once: every workflow of the catalog may call each as
   * `<workflow>#<name>` (rule 10). `package` is null for the project's own.
   */
  sharedActivities: Array<{ name: string; kind: 'step' | 'evaluator'; package: string | null }>;
}

/** The version of what a catalog document serves: SHA-256 (hex) of its workflows and shared activities. */
export function catalogVersion(doc: Pick<CatalogDocument, 'workflows' | 'sharedActivities'>): string {
  return createHash('sha256')
    .update(JSON.stringify({ workflows: doc.workflows, sharedActivities: doc.sharedActivities }))
    .digest('hex');
}

/** Payloads above this size (bytes) risk Temporal's blob limit (2 MiB by default); schemas are dropped beyond it. */
export const CATALOG_MEMO_BUDGET_BYTES = 1_500_000;

/** Builds the catalog document of a loaded project, published by the worker `identity`. */
export function buildCatalogDocument(
  project: LoadedProject,
  catalog: string,
  identity: string,
  now = Date.now(),
  deployment?: { name: string; buildId: string },
): CatalogDocument {
  const served = {
    workflows: project.workflows.map((wf) => ({
      name: wf.facts.name,
      aliases: wf.facts.aliases,
      description: wf.facts.description,
      inputSchema: wf.facts.inputSchema,
      outputSchema: wf.facts.outputSchema,
      activities: (project.scoped.get(wf.entry.name) ?? []).map((a) => ({
        name: a.facts.name,
        kind: a.facts.kind,
        shared: false,
        type: activityType(wf.facts.name, a.facts.name),
      })),
      ...(wf.facts.schedules.length ? { schedules: wf.facts.schedules } : {}),
    })),
    sharedActivities: project.shared.map((a) => ({
      name: a.facts.name,
      kind: a.facts.kind,
      package: 'package' in a.entry ? ((a.entry as { package: { name: string } | null }).package?.name ?? null) : null,
    })),
  };
  return { catalog, publishedAt: now, version: catalogVersion(served), identity, ...(deployment ? { deployment } : {}), ...served };
}

/**
 * Fits the document into the memo budget: when its JSON is larger than `CATALOG_MEMO_BUDGET_BYTES`, the JSON
 * Schemas are left out (the names, aliases and activities remain). Returns the document to publish and
 * whether schemas were dropped.
 */
export function fitCatalogDocument(doc: CatalogDocument): { doc: CatalogDocument; schemasDropped: boolean } {
  if (Buffer.byteLength(JSON.stringify(doc)) <= CATALOG_MEMO_BUDGET_BYTES) return { doc, schemasDropped: false };
  return { doc: { ...doc, workflows: doc.workflows.map((w) => ({ ...w, inputSchema: null, outputSchema: null })) }, schemasDropped: true };
}

/**
 * What the `$catalog` execution's memo holds for a document of a build: its head (catalog, version, deployment,
 * project, publisher, trace folder, time), not its workflows and shared activities. Those stay in the build's record
 * (`recordVersionCatalog`), which holds the whole document and which the API reads once per `version` (a hash of
 * exactly that content), so a worker's restart publishes a few hundred bytes instead of the whole catalog (0.8 MB on
 * a 1,000-workflow project), and the API re-reads nothing it already knows. A document without a deployment is
 * published whole (no record holds it).
 */
export type CatalogHead = Omit<CatalogDocument, 'workflows' | 'sharedActivities'>;

/** The head of `doc` (`CatalogHead`): the document without its workflows and shared activities. */
export function catalogHead(doc: CatalogDocument): CatalogHead {
  const { workflows: _workflows, sharedActivities: _shared, ...head } = doc;
  return head;
}

/**
 * Publishes the catalog's served document: starts `$catalog` (id `$catalog:<catalog>`) on the catalog's task
 * queue, replacing any previous run, with the document's head as its memo (`CatalogHead`; the whole document when it
 * names no deployment). The API serves what this document lists, so it is the current version's: the worker that
 * makes its build current publishes it, as does `skein deploy promote`/`rollback` (`publishCurrentCatalog`), each
 * after the build's record holds the same document (`recordVersionCatalog`), where the API reads the workflows.
 * @throws the engine's error.
 */
export async function publishCatalog(client: Client, doc: CatalogDocument): Promise<void> {
  await client.workflow.start(CATALOG_WORKFLOW_TYPE, {
    workflowId: catalogWorkflowId(doc.catalog),
    taskQueue: doc.catalog,
    args: [],
    memo: { catalog: doc.deployment ? catalogHead(doc) : doc },
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
  });
}

/**
 * Records the document of one build (`doc.deployment.buildId`): an execution `$catalog:<catalog>@<buildId>` on
 * the records task queue, never run, holding the whole document in its memo: the API reads the served workflows
 * there (the published `$catalog` holds only the head), and promoting that build later (an operator's
 * `skein deploy promote` or `rollback`) publishes what it serves. Replaces an earlier record of the build.
 * @throws Error when the document names no deployment; the engine's error.
 */
export async function recordVersionCatalog(client: Client, doc: CatalogDocument): Promise<void> {
  if (!doc.deployment) throw new Error('recordVersionCatalog: the document names no deployment version');
  await client.workflow.start(CATALOG_VERSION_WORKFLOW_TYPE, {
    workflowId: catalogVersionWorkflowId(doc.catalog, doc.deployment.buildId),
    taskQueue: RECORDS_TASK_QUEUE,
    args: [],
    memo: { catalog: doc },
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

/** Thrown when a build's catalog record is not what it claims to be (another catalog or build, another type of execution). */
export class CatalogRecordMismatchError extends Error {
  override name = 'CatalogRecordMismatchError';
}

/**
 * The catalog document recorded by build `buildId`'s running workers on `catalog` (`$catalog:<catalog>@<buildId>`).
 * @returns undefined when no running worker of that build recorded one (its workers stopped, or it never ran on this catalog).
 * @throws CatalogRecordMismatchError when the execution under that id is not a build's catalog record on the records
 *   task queue, or its document names another catalog or build; the engine's error.
 */
export async function readCatalogRecord(client: Client, catalog: string, buildId: string): Promise<CatalogDocument | undefined> {
  const recordId = catalogVersionWorkflowId(catalog, buildId);
  let d;
  try {
    d = await client.workflow.getHandle(recordId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
  const doc = d.memo?.catalog as CatalogDocument | undefined;
  if (d.status.name !== 'RUNNING' || !doc) return undefined;
  if (d.type !== CATALOG_VERSION_WORKFLOW_TYPE || d.taskQueue !== RECORDS_TASK_QUEUE) {
    throw new CatalogRecordMismatchError(`${recordId} is not a catalog record (a ${d.type} execution on ${d.taskQueue}): refused to publish it`);
  }
  if (doc.catalog !== catalog || doc.deployment?.buildId !== buildId) {
    throw new CatalogRecordMismatchError(
      `the catalog record ${recordId} names catalog "${String(doc.catalog)}" and build ${String(doc.deployment?.buildId)}, not "${catalog}" and ${buildId}: refused to publish it`,
    );
  }
  return doc;
}

/**
 * Publishes the recorded document of build `buildId` (`readCatalogRecord`) as `catalog`'s served document
 * (`publishCatalog`), always under `catalog`, the catalog it was asked for, then makes the catalog's declared
 * schedules match it (`syncDeclaredSchedules`).
 * @returns false when no running worker of that build recorded one.
 * @throws CatalogRecordMismatchError when the record is not what it claims to be (nothing is published); the engine's error.
 */
export async function publishCurrentCatalog(client: Client, catalog: string, buildId: string): Promise<boolean> {
  const doc = await readCatalogRecord(client, catalog, buildId);
  if (!doc) return false;
  await publishCatalog(client, { ...doc, catalog, publishedAt: Date.now() });
  await syncDeclaredSchedules(client, { ...doc, catalog });
  return true;
}

/**
 * Ends `catalog`'s served document (`$catalog:<catalog>`) when it is not build `buildId`'s: after a promotion of a
 * build that has no running worker, the API then answers `CatalogNotAvailableError` until a worker of that build
 * publishes its own, instead of serving the previous build's workflows. Never throws.
 */
export async function retireOtherCatalog(client: Client, catalog: string, buildId: string): Promise<void> {
  const handle = client.workflow.getHandle(catalogWorkflowId(catalog));
  const d = await handle.describe().catch(() => undefined);
  const doc = d?.memo?.catalog as CatalogDocument | undefined;
  if (d?.status.name === 'RUNNING' && doc?.deployment?.buildId !== buildId) {
    await handle.terminate(`build ${buildId} was made current and has no running worker yet`).catch(() => {});
  }
}

/** Ends the record of build `buildId` (its last worker stopped cleanly). Never throws. */
export async function dropVersionCatalog(client: Client, catalog: string, buildId: string): Promise<void> {
  await client.workflow
    .getHandle(catalogVersionWorkflowId(catalog, buildId))
    .terminate('the last worker of this build stopped')
    .catch(() => {});
}
