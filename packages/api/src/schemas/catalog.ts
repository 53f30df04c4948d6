import { z } from 'zod';
import 'zod-openapi';

/** CONTRACT catalog document. */
export const catalogResponseSchema = z
  .object({
    catalog: z.string(),
    publishedAt: z.number().int().meta({ description: 'Epoch ms' }),
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
      }),
    ),
    sharedActivities: z
      .array(z.object({ name: z.string(), kind: z.enum(['step', 'evaluator']), package: z.string().nullable() }))
      .meta({ description: 'Shared activities (SPEC rule 6), callable from every workflow of the catalog as `<workflow>#<name>`.' }),
  })
  .meta({ id: 'CatalogResponse' });

/** `GET /ready` body. */
export const readyResponseSchema = z.object({ status: z.enum(['ready', 'unavailable']) }).meta({ id: 'ReadyResponse' });

/** `GET /health` body. */
export const healthResponseSchema = z.object({ status: z.literal('ok') }).meta({ id: 'HealthResponse' });
