import { DEFAULT_CATALOG } from '@skein/names';
import { z } from 'zod';
import { choiceSetting, intSetting, rawSetting, settingDocs } from './settings.js';

/** Longest catalog name, in UTF-8 bytes (as the engine counts a task queue's name). */
export const MAX_CATALOG_BYTES = 200;

/**
 * `SKEIN_CATALOG`: the catalog (task queue) a worker serves and the API's default; read the same way by both: at most
 * {@link MAX_CATALOG_BYTES} UTF-8 bytes, without `@`.
 */
export const catalogSetting = rawSetting()
  .transform((value, ctx): string => {
    if (value === undefined) return DEFAULT_CATALOG;
    if (Buffer.byteLength(value) > MAX_CATALOG_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must be a catalog name of at most ${MAX_CATALOG_BYTES} UTF-8 bytes` });
      return z.NEVER;
    }
    if (value.includes('@')) {
      // `@` separates a catalog from a build ID in the ids of Skein's records (`$catalog:<catalog>@<buildId>`).
      ctx.addIssue({ code: 'custom', message: 'must be a catalog name without "@" (it separates a catalog from a build ID in record ids)' });
      return z.NEVER;
    }
    return value;
  })
  .register(settingDocs, {
    default: DEFAULT_CATALOG,
    description: "the catalog (Temporal task queue): the one a worker serves, and the API's default when a request names none",
  });

/** pino's levels, lowest to highest, and `silent`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `SKEIN_LOG_LEVEL`: the lowest level a process logs, in every Skein process. */
export const logLevelSetting = choiceSetting(LOG_LEVELS, 'info', {
  description: `the lowest level logged (${LOG_LEVELS.join(', ')})`,
});

/** The health check of the engine connection, the same in the worker and the API (see `monitorEngine`). */
export const engineCheckSettings = {
  SKEIN_ENGINE_CHECK_INTERVAL_MS: intSetting(
    5_000,
    { min: 10, max: 3_600_000 },
    {
      description:
        'period of the engine health check, in ms; each check has a deadline of min(5 000, 0.9 × period) ms, and checks start on this schedule whatever the previous one is doing',
    },
  ),
  SKEIN_ENGINE_CHECK_FAILURES: intSetting(
    3,
    { min: 1, max: 1_000 },
    {
      description:
        'consecutive failed health checks after which the process gives the engine up: the worker stops, the API shuts down (both exit 1); `GET /ready` answers 503 from the first failure',
    },
  ),
};
