import { catalogSetting, engineCheckSettings, flagSetting, logLevelSetting, textSetting } from '@skein/runtime';

/**
 * Every `SKEIN_*` setting a worker reads, each with its default, parsing and documentation (the settings page is
 * generated from it). The engine connection (`TEMPORAL_*`) is read by Temporal's own env-config. Kept apart from
 * `config.ts` so that modules that must not load Temporal's SDK (`check.ts`) can read one setting.
 */
export const workerSettings = {
  SKEIN_CATALOG: catalogSetting,
  ...engineCheckSettings,
  SKEIN_ROLLING_DEPLOY: flagSetting({
    description: 'start next to a live worker that serves another version of the catalog (as `skein worker --rolling-deploy`)',
  }),
  SKEIN_TRACE_DIR: textSetting({
    default: '<project>/.skein/traces',
    description: "the worker's trace folder (`off`: no trace files); the API reads trace files only below its own value",
  }),
  SKEIN_BUNDLE_CACHE: textSetting({
    default: '<project>/.skein/bundles',
    description: 'folder of the workflow bundle cache (`off`: bundle on every start)',
  }),
  SKEIN_STARTUP_CACHE: textSetting({
    default: '<project>/.skein/startup',
    description: 'folder of the startup cache of validation results and module facts (`off`: validate and load everything on every start)',
  }),
  SKEIN_LOG_LEVEL: logLevelSetting,
};
