import type { RouteDef } from '../route.js';
import { batchRoutes } from './batch.js';
import { catalogRoutes } from './catalog.js';
import { controlRoutes } from './control.js';
import { docsRoutes } from './docs.js';
import { feedbackRoutes } from './feedback.js';
import { healthRoutes } from './health.js';
import { historyRoutes } from './history.js';
import { inputRoutes } from './input.js';
import { metricsRoutes } from './metrics.js';
import { queryRoutes } from './query.js';
import { resetRoutes } from './reset.js';
import { resultRoutes } from './result.js';
import { runRoutes } from './run.js';
import { runsRoutes } from './runs.js';
import { scheduleActionRoutes } from './schedule-actions.js';
import { scheduleRoutes } from './schedules.js';
import { signalRoutes } from './signal.js';
import { startRoutes } from './start.js';
import { statusRoutes } from './status.js';
import { streamRoutes } from './stream.js';
import { traceLogRoutes } from './trace-log.js';

/**
 * Every route of the API, in registration order (fixed paths such as `/workflow/runs`,
 * `/workflow/batch` and `/workflow/catalog` come before `/workflow/{id}/...`). The OpenAPI document is built from this list.
 */
export const allRoutes: RouteDef[] = [
  ...runRoutes,
  ...startRoutes,
  ...runsRoutes,
  ...batchRoutes,
  ...catalogRoutes,
  ...signalRoutes,
  ...feedbackRoutes,
  ...queryRoutes,
  ...statusRoutes,
  ...inputRoutes,
  ...resultRoutes,
  ...historyRoutes,
  ...streamRoutes,
  ...traceLogRoutes,
  ...controlRoutes,
  ...resetRoutes,
  ...scheduleRoutes,
  ...scheduleActionRoutes,
  ...healthRoutes,
  ...metricsRoutes,
  ...docsRoutes,
];
