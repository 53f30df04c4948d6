import { z } from 'zod';
import 'zod-openapi';

/** The catalog document a worker publishes: its workflows, shared activities and live workers. */
export const catalogResponseSchema = z
  .object({
    catalog: z.string(),
    version: z.string().nullable().meta({ description: 'Hash (SHA-256, hex) of what the publishing worker serves' }),
    publishedAt: z.number().int().meta({ description: 'Epoch ms' }),
    deployment: z.object({ name: z.string(), buildId: z.string() }).nullable().meta({
      description: 'The current build serving the catalog (Temporal Worker Versioning deployment name and build ID); null for a worker of an older release',
    }),
    workflows: z.array(
      z.object({
        name: z.string(),
        aliases: z.array(z.string()),
        description: z.string().nullable(),
        inputSchema: z.record(z.string(), z.unknown()).nullable().meta({ description: 'JSON Schema' }),
        outputSchema: z.record(z.string(), z.unknown()).nullable().meta({ description: 'JSON Schema' }),
        activities: z
          .array(z.object({ name: z.string(), kind: z.enum(['step', 'evaluator']), shared: z.boolean(), type: z.string() }))
          .meta({ description: "The workflow's own steps and evaluators, with their activity types `<workflow>#<name>`." }),
        schedules: z
          .array(
            z.object({
              id: z.string(),
              cron: z.array(z.string()).optional(),
              every: z.string().optional(),
              timezone: z.string().optional(),
              input: z.unknown(),
            }),
          )
          .meta({
            description:
              'The schedules the workflow declares in code, kept in the engine as schedule `<catalog>:<workflow>:<id>` while this build is current (empty for a worker of an older release).',
          }),
      }),
    ),
    sharedActivities: z
      .array(z.object({ name: z.string(), kind: z.enum(['step', 'evaluator']), package: z.string().nullable() }))
      .meta({ description: 'Shared activities, callable from every workflow of the catalog as `<workflow>#<name>`.' }),
    workers: z
      .array(z.object({ identity: z.string(), lastPollAt: z.number().int().meta({ description: 'Epoch ms of its last poll' }) }))
      .meta({ description: 'Workers polling the catalog (Temporal DescribeTaskQueue pollers seen in the last 70 s), newest first' }),
  })
  .meta({ id: 'CatalogResponse' });

/** `GET /workflow/catalog`: the default catalog's document, plus every running catalog and whether it is live. */
export const defaultCatalogResponseSchema = catalogResponseSchema
  .extend({
    catalogs: z.array(z.object({ catalog: z.string(), live: z.boolean(), version: z.string().nullable() })).meta({
      description:
        "Every catalog with a published document (at most 100) and whether it is live: runs are accepted there now (its current build's lease runs; without a build, a worker polls it)",
    }),
  })
  .meta({ id: 'DefaultCatalogResponse' });

/** `GET /ready` body. */
export const readyResponseSchema = z.object({ status: z.enum(['ready', 'unavailable']) }).meta({ id: 'ReadyResponse' });

/** `GET /health` body. */
export const healthResponseSchema = z.object({ status: z.literal('ok') }).meta({ id: 'HealthResponse' });
