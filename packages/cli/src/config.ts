import { DEFAULT_API_URL } from '@skein/client';
import { choiceSetting, loadSettings, logLevelSetting, textSetting, type LogLevel } from '@skein/settings';

/**
 * Every `SKEIN_*` setting the `skein` command itself reads (the worker and the API it starts read their own,
 * `workerSettings` and `apiSettings`), each with its default, parsing and documentation.
 * `SKEIN_API_URL` and `SKEIN_API_TOKEN` are read by the client commands through commander (`--url` / `--token`
 * win over them); they are listed here so that the settings page documents them with the rest.
 */
export const cliSettings = {
  SKEIN_LOG_LEVEL: logLevelSetting,
  SKEIN_LOG_PRETTY: choiceSetting(['auto', '1', '0'], 'auto', {
    description: 'log lines for people (`1`, pino-pretty) or JSON lines (`0`); `auto`: for people on a terminal',
  }),
  SKEIN_API_URL: textSetting({
    default: DEFAULT_API_URL,
    description: 'base URL of the API for `skein workflow` and `skein catalog` (`--url` wins)',
  }),
  SKEIN_API_TOKEN: textSetting({
    description: 'bearer token `skein workflow` and `skein catalog` send to an API that requires one (`--token` wins)',
  }),
};

/** The CLI's own settings, read from the environment. */
export interface CliConfig {
  logLevel: LogLevel;
  /** Whether log lines are for people: `SKEIN_LOG_PRETTY`, or, on `auto`, whether stdout is a terminal. */
  prettyLogs: boolean;
}

/**
 * Reads the CLI's own settings from `env`.
 * @throws ConfigError (one line naming the variable) when a setting is malformed.
 */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): CliConfig {
  const s = loadSettings({ SKEIN_LOG_LEVEL: cliSettings.SKEIN_LOG_LEVEL, SKEIN_LOG_PRETTY: cliSettings.SKEIN_LOG_PRETTY }, env);
  return {
    logLevel: s.SKEIN_LOG_LEVEL,
    prettyLogs: s.SKEIN_LOG_PRETTY === 'auto' ? process.stdout.isTTY === true : s.SKEIN_LOG_PRETTY === '1',
  };
}
