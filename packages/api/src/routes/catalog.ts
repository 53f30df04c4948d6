import { z } from 'zod';
import { defineRoute } from '../route.js';
import { catalogResponseSchema } from '../schemas/catalog.js';

export const catalogRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/catalog',
    operationId: 'getDefaultCatalog',
    summary: 'Workflows of the default catalog',
    description: 'The catalog document the worker serving the default catalog published.',
    tag: 'Catalog',
    responses: { 200: { description: 'Catalog', schema: catalogResponseSchema } },
    errors: ['CatalogNotAvailableError'],
    async handler({ ctx, deps }) {
      ctx.body = await deps.catalogs.get(deps.config.defaultCatalog);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/catalog/{catalog}',
    operationId: 'getCatalog',
    summary: 'Workflows of a catalog',
    tag: 'Catalog',
    params: z.object({ catalog: z.string().min(1).max(200).meta({ description: 'Catalog (task queue) name' }) }),
    responses: { 200: { description: 'Catalog', schema: catalogResponseSchema } },
    errors: ['CatalogNotAvailableError'],
    async handler({ ctx, deps, params }) {
      ctx.body = await deps.catalogs.get(params.catalog);
    },
  }),
];
