/**
 * `@skein/settings`: the settings of every Skein process (worker, API, CLI). Each process declares its settings as a
 * schema of environment variables built from these pieces and reads them once with `loadSettings`. The engine health
 * check that the `SKEIN_ENGINE_CHECK_*` settings configure lives here too: the worker and the API watch the engine
 * with the one `monitorEngine`.
 */
export {
  ConfigError,
  SETTING_ALIASES,
  choiceSetting,
  flagSetting,
  intSetting,
  listSetting,
  loadSettings,
  patternSetting,
  settingDocs,
  settingsTable,
  textSetting,
  type ProcessSettings,
  type SettingDoc,
  type Settings,
  type SettingsShape,
} from './settings.js';
export { LOG_LEVELS, MAX_CATALOG_BYTES, catalogSetting, engineCheckSettings, logLevelSetting, type LogLevel } from './common.js';
export { monitorEngine, pingEngine, type EngineMonitor, type EngineMonitorOptions, type HealthCheckedEngine } from './engine-monitor.js';
export {
  CRON_PREDEFINED,
  DECLARED_SCHEDULE_MEMO_KEY,
  MIN_EVERY_MS,
  SCHEDULE_TIMES_MEMO_KEY,
  cronProblem,
  declaredScheduleId,
  durationMs,
  isTimeZone,
  parseEvery,
  scheduleTimesProblems,
  splitCron,
  temporalScheduleTimes,
  type ScheduleTimes,
} from './schedule-spec.js';
