/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4) for tests: every line must be a
 * `# HELP`, a `# TYPE`, a comment, blank, or a sample `name{label="value",...} number [timestamp]`; a sample's
 * family must have been declared by `# TYPE` before it (histogram samples under their `_bucket`/`_sum`/`_count`
 * names). Anything else throws with the offending line, so a test that parses a scrape also checks its syntax.
 */

/** One metric family: its type, help text and samples. */
export interface Family {
  type: string;
  help: string;
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

/** Families by name. */
export type Exposition = Map<string, Family>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', '_info'];

function familyOf(name: string, families: Exposition): Family | undefined {
  if (families.has(name)) return families.get(name);
  for (const s of SUFFIXES) if (name.endsWith(s) && families.has(name.slice(0, -s.length))) return families.get(name.slice(0, -s.length));
  return undefined;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const m = LABEL.exec(text);
    if (!m || m.index !== start) throw new Error(`bad labels in line: ${line}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    if (m[3] === '') break;
  }
  return labels;
}

function parseValue(raw: string, line: string): number {
  // As Go's strconv.ParseFloat, which Prometheus uses: special values in any case.
  if (/^\+?inf(inity)?$/i.test(raw)) return Infinity;
  if (/^-inf(inity)?$/i.test(raw)) return -Infinity;
  if (/^nan$/i.test(raw)) return NaN;
  const n = Number(raw);
  if (Number.isNaN(n)) throw new Error(`bad value in line: ${line}`);
  return n;
}

/** Parses a scrape. @throws Error naming the first line that is not valid exposition text. */
export function parseExposition(text: string): Exposition {
  const families: Exposition = new Map();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // a plain comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name in line: ${line}`);
      const family = families.get(name) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest)) throw new Error(`bad type in line: ${line}`);
        family.type = rest;
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const family = familyOf(m[1]!, families);
    if (!family) throw new Error(`sample of an undeclared family: ${line}`);
    family.samples.push({ name: m[1]!, labels: m[3] ? parseLabels(m[3], line) : {}, value: parseValue(m[4]!, line) });
  }
  return families;
}

/**
 * The value of the one sample named `name` whose labels include `labels` (sums them when several match), or
 * undefined when none does.
 */
export function sample(exposition: Exposition, name: string, labels: Record<string, string>): number | undefined {
  const family = familyOf(name, exposition);
  let found: number | undefined;
  for (const s of family?.samples ?? []) {
    if (s.name !== name) continue;
    if (Object.entries(labels).every(([k, v]) => s.labels[k] === v)) found = (found ?? 0) + s.value;
  }
  return found;
}
