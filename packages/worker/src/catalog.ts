import { CATALOG_WORKFLOW_TYPE, activityType, catalogWorkflowId, type Schema } from '@skein/core';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import type { LoadedProject } from './load.js';

/**
 * The catalog a worker serves, as the API reads it from the `$catalog` workflow's memo
 * (CONTRACT "GET /workflow/catalog"). JSON Schemas are generated from the zod schemas.
 */
export interface CatalogDocument {
  catalog: string;
  /** Epoch ms of publication. */
  publishedAt: number;
  workflows: Array<{
    name: string;
    aliases: string[];
    description: string | null;
    inputSchema: object | null;
    outputSchema: object | null;
    activities: Array<{ name: string; kind: 'step' | 'evaluator'; shared: boolean; type: string }>;
  }>;
}

function jsonSchema(schema: Schema | undefined): object | null {
  if (!schema) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' }) as object;
  } catch {
    return null;
  }
}

/** Builds the catalog document of a loaded project. */
export function buildCatalogDocument(project: LoadedProject, catalog: string, now = Date.now()): CatalogDocument {
  return {
    catalog,
    publishedAt: now,
    workflows: project.workflows.map((wf) => ({
      name: wf.def.name,
      aliases: wf.def.aliases,
      description: wf.def.description ?? null,
      inputSchema: jsonSchema(wf.def.inputSchema),
      outputSchema: jsonSchema(wf.def.outputSchema),
      activities: [...(project.scoped.get(wf.def.name) ?? []), ...project.shared].map((a) => ({
        name: a.def.name,
        kind: a.def.kind,
        shared: a.entry.shared,
        type: activityType(wf.def.name, a.def.name),
      })),
    })),
  };
}

/**
 * Publishes the catalog: starts `$catalog` (id `$catalog:<catalog>`) on the catalog's task queue with the
 * document as argument and memo, replacing any previous run (the newest worker's catalog wins).
 */
export async function publishCatalog(client: Client, doc: CatalogDocument): Promise<void> {
  await client.workflow.start(CATALOG_WORKFLOW_TYPE, {
    workflowId: catalogWorkflowId(doc.catalog),
    taskQueue: doc.catalog,
    args: [doc],
    memo: { catalog: doc },
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
  });
}
