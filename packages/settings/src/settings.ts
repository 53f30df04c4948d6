import { z } from 'zod';

/**
 * How a setting is documented: what it means, and its default as a person reads it (`30000`, `<cwd>/.skein/traces`,
 * `unset`). The settings page (`docs/reference/settings.md`) is generated from this, so the code and the page cannot
 * disagree.
 */
export interface SettingDoc {
  /** One sentence: what the setting does, with its unit. */
  description: string;
  /** The default as written in the docs; omitted = unset. */
  default?: string;
}

/** The documentation of every setting schema, keyed by the schema object. */
export const settingDocs = z.registry<SettingDoc>();

/** A process's settings: one member per environment variable, each a schema from the builders below. */
export type SettingsShape = Record<string, z.ZodType>;

/** Parsed settings of a shape: each variable's value after its schema (defaults applied). */
export type Settings<S extends SettingsShape> = { [K in keyof S]: z.output<S[K]> };

/** Raised for a malformed setting. The message is one line naming the variable, its value and what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Other names of a variable (alias → the name the schemas read): the API's configuration contract names the engine
 * health check `SKEIN_READY_INTERVAL_MS` and `SKEIN_READY_FAILURES`; the worker, which has no `/ready`, shares the
 * check under `SKEIN_ENGINE_CHECK_*`. Either name sets it in every process; both set to different values is refused.
 */
export const SETTING_ALIASES: Readonly<Record<string, string>> = {
  SKEIN_READY_INTERVAL_MS: 'SKEIN_ENGINE_CHECK_INTERVAL_MS',
  SKEIN_READY_FAILURES: 'SKEIN_ENGINE_CHECK_FAILURES',
};

/** A new schema of a value as read: trimmed, and a blank value counts as unset. */
export const rawSetting = () => z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), z.string().optional());

function documented<T extends z.ZodType>(schema: T, doc: SettingDoc): T {
  settingDocs.add(schema, doc);
  return schema;
}

/**
 * An integer setting in `[min, max]`, `fallback` when unset.
 * @returns a schema whose output is a number; a malformed value fails with "must be an integer between min and max".
 */
export function intSetting(fallback: number, range: { min: number; max?: number }, doc: SettingDoc) {
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const schema = rawSetting().transform((value, ctx): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^[+-]?\d+$/.test(value) || n < range.min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be an integer between ${range.min} and ${max}` });
      return z.NEVER;
    }
    return n;
  });
  return documented(schema, { default: String(fallback), ...doc });
}

/** A yes/no setting: `1`, `true`, `yes` or `0`, `false`, `no` (any case); false when unset. */
export function flagSetting(doc: SettingDoc) {
  const schema = rawSetting().transform((value, ctx): boolean => {
    if (value === undefined) return false;
    if (/^(1|true|yes)$/i.test(value)) return true;
    if (/^(0|false|no)$/i.test(value)) return false;
    ctx.addIssue({ code: 'custom', message: 'must be 1, true, yes, 0, false or no' });
    return z.NEVER;
  });
  return documented(schema, { default: 'false', ...doc });
}

/** A text setting, trimmed; `undefined` when unset or blank. */
export function textSetting(doc: SettingDoc) {
  return documented(rawSetting(), doc);
}

/** A text setting that must match `pattern` (described by `what` in the error); `undefined` when unset. */
export function patternSetting(pattern: RegExp, what: string, doc: SettingDoc) {
  const schema = rawSetting().refine((value) => value === undefined || pattern.test(value), { message: `must be ${what}` });
  return documented(schema, doc);
}

/** One of `values`, compared in lower case; `fallback` when unset. */
export function choiceSetting<const V extends readonly [string, ...string[]]>(values: V, fallback: V[number], doc: SettingDoc) {
  const schema = rawSetting().transform((value, ctx): V[number] => {
    if (value === undefined) return fallback;
    const lower = value.toLowerCase();
    if ((values as readonly string[]).includes(lower)) return lower;
    ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
    return z.NEVER;
  });
  return documented(schema, { default: fallback, ...doc });
}

/** A comma-separated list, each item trimmed, empty items dropped; `[]` when unset. */
export function listSetting(doc: SettingDoc) {
  const schema = rawSetting().transform((value): string[] =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  return documented(schema, doc);
}

/**
 * Reads the settings of `shape` from `env`: every default, parse and check in one place.
 * @param env variables as the process sees them (`process.env`); only the shape's own names are read.
 * A variable may also be set under an alias ({@link SETTING_ALIASES}).
 * @throws ConfigError (one line: `NAME must be …, got "value"`, naming the variable as it was set) for the first
 *   malformed variable, or when a variable and its alias are both set to different values.
 */
export function loadSettings<S extends SettingsShape>(shape: S, env: NodeJS.ProcessEnv = process.env): Settings<S> {
  const input: Record<string, string | undefined> = {};
  const setAs: Record<string, string> = {};
  for (const name of Object.keys(shape)) input[name] = env[name];
  for (const [alias, name] of Object.entries(SETTING_ALIASES)) {
    const value = env[alias];
    if (!(name in shape) || value === undefined) continue;
    if (input[name] !== undefined && input[name] !== value) {
      throw new ConfigError(`${alias} and ${name} name the same setting but differ (${JSON.stringify(value)}, ${JSON.stringify(input[name])}): set one`);
    }
    input[name] = value;
    setAs[name] = alias;
  }
  const result = z.object(shape).safeParse(input);
  if (result.success) return result.data as Settings<S>;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0]);
  throw new ConfigError(`${setAs[name] ?? name} ${issue.message}, got ${JSON.stringify(input[name])}`);
}

/** One process's settings for {@link settingsTable}: its name as the docs say it, and its shape. */
export interface ProcessSettings {
  process: string;
  shape: SettingsShape;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * The settings table in Markdown: one row per variable and meaning, naming the processes that read it, sorted by
 * variable. A variable read by several processes with the same schema is one row.
 * @throws Error when a schema of `processes` carries no {@link settingDocs} entry.
 */
export function settingsTable(processes: ProcessSettings[]): string {
  const rows = new Map<string, { name: string; doc: SettingDoc; processes: string[] }>();
  for (const { process, shape } of processes) {
    for (const [name, schema] of Object.entries(shape)) {
      const doc = settingDocs.get(schema);
      if (!doc) throw new Error(`setting ${name} of ${process} has no documentation (settingDocs)`);
      const key = `${name}\u0000${doc.description}`;
      const row = rows.get(key) ?? { name, doc, processes: [] };
      row.processes.push(process);
      rows.set(key, row);
    }
  }
  const lines = ['| variable | read by | default | meaning |', '|---|---|---|---|'];
  for (const row of [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.processes[0]!.localeCompare(b.processes[0]!))) {
    const fallback = row.doc.default === undefined ? 'unset' : `\`${row.doc.default}\``;
    lines.push(`| \`${row.name}\` | ${row.processes.join(', ')} | ${cell(fallback)} | ${cell(row.doc.description)} |`);
  }
  return `${lines.join('\n')}\n`;
}
