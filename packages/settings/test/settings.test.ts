import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  catalogSetting,
  choiceSetting,
  engineCheckSettings,
  flagSetting,
  intSetting,
  listSetting,
  loadSettings,
  logLevelSetting,
  settingsTable,
  textSetting,
} from '../src/index.js';

const shape = {
  SKEIN_N: intSetting(5, { min: 1, max: 10 }, { description: 'a number' }),
  SKEIN_F: flagSetting({ description: 'a flag' }),
  SKEIN_T: textSetting({ description: 'a text' }),
  SKEIN_L: listSetting({ description: 'a list' }),
  SKEIN_C: choiceSetting(['a', 'b'], 'a', { description: 'a choice' }),
};

describe('loadSettings', () => {
  it('gives every default when nothing is set, and treats blank values as unset', () => {
    const expected = { SKEIN_N: 5, SKEIN_F: false, SKEIN_T: undefined, SKEIN_L: [], SKEIN_C: 'a' };
    expect(loadSettings(shape, {})).toEqual(expected);
    expect(loadSettings(shape, { SKEIN_N: ' ', SKEIN_F: '', SKEIN_T: '  ', SKEIN_C: '' })).toEqual(expected);
  });

  it('parses what is set, trimmed', () => {
    expect(loadSettings(shape, { SKEIN_N: ' 10 ', SKEIN_F: 'YES', SKEIN_T: ' x ', SKEIN_L: ' a, ,b ', SKEIN_C: 'B' })).toEqual({
      SKEIN_N: 10,
      SKEIN_F: true,
      SKEIN_T: 'x',
      SKEIN_L: ['a', 'b'],
      SKEIN_C: 'b',
    });
    expect(loadSettings(shape, { SKEIN_F: '0' }).SKEIN_F).toBe(false);
  });

  it('rejects a malformed value with one line naming the variable and its value', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ SKEIN_N: '11' }, 'SKEIN_N must be an integer between 1 and 10, got "11"'],
      [{ SKEIN_N: '2.5' }, 'SKEIN_N must be an integer between 1 and 10, got "2.5"'],
      [{ SKEIN_N: '1e1' }, 'SKEIN_N must be an integer between 1 and 10, got "1e1"'],
      [{ SKEIN_F: 'maybe' }, 'SKEIN_F must be 1, true, yes, 0, false or no, got "maybe"'],
      [{ SKEIN_C: 'c' }, 'SKEIN_C must be one of a, b, got "c"'],
    ];
    for (const [env, message] of cases) {
      const err = (() => {
        try {
          loadSettings(shape, env);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(message);
    }
  });

  it('reads a variable under its alias, names the alias in an error, and refuses the two set to different values', () => {
    expect(loadSettings(engineCheckSettings, { SKEIN_READY_FAILURES: '4', SKEIN_READY_INTERVAL_MS: '2000' })).toMatchObject({
      SKEIN_ENGINE_CHECK_FAILURES: 4,
      SKEIN_ENGINE_CHECK_INTERVAL_MS: 2000,
    });
    expect(loadSettings(engineCheckSettings, { SKEIN_READY_FAILURES: '4', SKEIN_ENGINE_CHECK_FAILURES: '4' }).SKEIN_ENGINE_CHECK_FAILURES).toBe(4);
    expect(() => loadSettings(engineCheckSettings, { SKEIN_READY_FAILURES: 'three' })).toThrow(
      'SKEIN_READY_FAILURES must be an integer between 1 and 1000, got "three"',
    );
    expect(() => loadSettings(engineCheckSettings, { SKEIN_READY_FAILURES: '4', SKEIN_ENGINE_CHECK_FAILURES: '5' })).toThrow(
      'SKEIN_READY_FAILURES and SKEIN_ENGINE_CHECK_FAILURES name the same setting but differ ("4", "5"): set one',
    );
    // Only where the schema reads the variable.
    expect(loadSettings(shape, { SKEIN_READY_FAILURES: 'three' }).SKEIN_N).toBe(5);
  });

  it('reads the catalog and the log level the same way everywhere', () => {
    const common = { SKEIN_CATALOG: catalogSetting, SKEIN_LOG_LEVEL: logLevelSetting };
    expect(loadSettings(common, {})).toEqual({ SKEIN_CATALOG: 'main', SKEIN_LOG_LEVEL: 'info' });
    expect(loadSettings(common, { SKEIN_CATALOG: ' orders ', SKEIN_LOG_LEVEL: 'WARN' })).toEqual({ SKEIN_CATALOG: 'orders', SKEIN_LOG_LEVEL: 'warn' });
    expect(() => loadSettings(common, { SKEIN_CATALOG: 'x'.repeat(201) })).toThrow(/^SKEIN_CATALOG must be a catalog name of at most 200 UTF-8 bytes/);
    expect(() => loadSettings(common, { SKEIN_LOG_LEVEL: 'verbose' })).toThrow(/^SKEIN_LOG_LEVEL must be one of trace, debug/);
  });
});

describe('settingsTable', () => {
  it('lists each variable once per meaning, with the processes that read it, its default and its meaning', () => {
    const table = settingsTable([
      { process: 'worker', shape: { SKEIN_CATALOG: catalogSetting, SKEIN_N: shape.SKEIN_N } },
      { process: 'API', shape: { SKEIN_CATALOG: catalogSetting, SKEIN_T: shape.SKEIN_T } },
    ]);
    expect(table.split('\n')).toEqual([
      '| variable | read by | default | meaning |',
      '|---|---|---|---|',
      expect.stringMatching(/^\| `SKEIN_CATALOG` \| worker, API \| `main` \| the catalog/),
      '| `SKEIN_N` | worker | `5` | a number |',
      '| `SKEIN_T` | API | unset | a text |',
      '',
    ]);
  });
});
