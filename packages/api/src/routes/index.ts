import type { RouteDef } from '../route.js';
import { healthRoutes } from './health.js';
import { resultRoutes } from './result.js';
import { runRoutes } from './run.js';
import { startRoutes } from './start.js';

/**
 * Every route of the API, in registration order (fixed paths such as `/workflow/runs` and
 * `/workflow/catalog` come before `/workflow/{id}/...`). The OpenAPI document is built from this list.
 */
export const allRoutes: RouteDef[] = [...runRoutes, ...startRoutes, ...resultRoutes, ...healthRoutes];
