import { z } from 'zod';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import { catalogNameSchema } from '../schemas/common.js';
import { catalogResponseSchema, defaultCatalogResponseSchema } from '../schemas/catalog.js';

const LIVENESS =
  'A catalog is available while its `$catalog` execution runs (a cleanly stopped last worker retires it at once), a live ' +
  "worker of its current build renews that build's lease (every 3 s; a lease lapses 10 s after the last renewal, so a " +
  "crashed fleet is noticed within seconds); a document published without a build (by an older worker) is live while a worker polls its task queue (the engine's DescribeTaskQueue pollers); " +
  "each read is cached `SKEIN_CATALOG_CACHE_MS`. The document is the current build's. Otherwise 404 `CatalogNotAvailableError` with `Retry-After`.";

export const catalogRoutes = [
  defineRoute({
    method: 'get',
    path: '/workflow/catalog',
    operationId: 'getDefaultCatalog',
    summary: 'Workflows of the default catalog, and which catalogs are live',
    description: `The document the workers serving the default catalog published, and \`catalogs\`: every catalog with a published document and whether it is live (runs are accepted there now). ${LIVENESS} The 404's message names the live catalogs.`,
    tag: 'Catalog',
    responses: { 200: { description: 'Catalog', schema: defaultCatalogResponseSchema } },
    errors: ['CatalogNotAvailableError'],
    async handler({ ctx, deps }) {
      const [doc, catalogs] = await Promise.allSettled([deps.catalogs.get(deps.config.defaultCatalog), deps.catalogs.list()]);
      if (doc.status === 'rejected') {
        const err = doc.reason as unknown;
        if (err instanceof ApiError && err.type === 'CatalogNotAvailableError' && catalogs.status === 'fulfilled') {
          const live = catalogs.value.filter((c) => c.live).map((c) => `"${c.catalog}"`);
          throw new ApiError('CatalogNotAvailableError', {
            message: `${err.message}; live catalogs: ${live.length > 0 ? live.join(', ') : 'none'}`,
            headers: err.headers,
          });
        }
        throw err;
      }
      if (catalogs.status === 'rejected') throw catalogs.reason;
      ctx.body = { ...doc.value, catalogs: catalogs.value };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/workflow/catalog/{catalog}',
    operationId: 'getCatalog',
    summary: 'Workflows of a catalog',
    description: `The document the workers serving the catalog published, and those workers. ${LIVENESS}`,
    tag: 'Catalog',
    params: z.object({ catalog: catalogNameSchema.meta({ description: 'Catalog (task queue) name (at most 200 UTF-8 bytes, no `@`)' }) }),
    responses: { 200: { description: 'Catalog', schema: catalogResponseSchema } },
    errors: ['CatalogNotAvailableError'],
    async handler({ ctx, deps, params }) {
      ctx.body = await deps.catalogs.get(params.catalog);
    },
  }),
];
