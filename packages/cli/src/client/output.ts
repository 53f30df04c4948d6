/**
 * Human output of the client commands: colours (only on a TTY, `NO_COLOR`/`FORCE_COLOR` respected, through
 * Node's `util.styleText`), borderless tables (cli-table3), durations, times and status marks. Text that came
 * from the engine goes through `inert` (`inert.ts`) before it is styled: the helpers here do it for what they are
 * given as data (statuses, run references, notes, JSON), and callers for the cells and values they compose.
 */
import { styleText } from 'node:util';
import Table from 'cli-table3';
import { parseApiTime } from '@skein/client';
import { inert, inertJson } from './inert.js';

export { inert, inertJson } from './inert.js';

type Style = Parameters<typeof styleText>[0];

/** `text` styled for `stream` (default stdout); plain when that stream is not a colour terminal. */
export function paint(style: Style, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return styleText(style, text, { stream });
}

const STATUS_STYLE: Record<string, Style> = {
  completed: 'green',
  running: 'cyan',
  failed: 'red',
  terminated: 'red',
  timed_out: 'red',
  canceled: 'yellow',
  cancelled: 'yellow',
  continued_as_new: 'blue',
};

const STATUS_MARK: Record<string, string> = {
  completed: '✔',
  running: '…',
  failed: '✖',
  terminated: '✖',
  timed_out: '✖',
  canceled: '⊘',
  cancelled: '⊘',
  continued_as_new: '↻',
};

/** A status word (made inert), coloured by outcome for `stream` (default stdout). */
export function statusText(status: string, stream?: NodeJS.WriteStream): string {
  return paint(STATUS_STYLE[status] ?? 'white', inert(status), stream);
}

/** A one-character status mark (✔ ✖ … ⊘ ↻), coloured by outcome for `stream` (default stdout). */
export function statusMark(status: string, stream?: NodeJS.WriteStream): string {
  return paint(STATUS_STYLE[status] ?? 'white', STATUS_MARK[status] ?? '?', stream);
}

/**
 * The outcome line of a closed run, for stderr: `✔ completed  [name  ]<workflowId>  run <runId>[  <duration>]`
 * (ids and name made inert).
 */
export function outcomeLine(status: string, ref: { workflowId: string; runId: string }, name?: string, tookMs?: number): string {
  const e = process.stderr;
  const tail = `${inert(ref.workflowId)}  run ${inert(ref.runId)}${tookMs === undefined ? '' : `  ${formatDuration(tookMs)}`}`;
  return `${statusMark(status, e)} ${statusText(status, e)}  ${name ? `${inert(name)}  ` : ''}${paint('dim', tail, e)}\n`;
}

/** Writes one line to stderr, styled for stderr; `text` is made inert (it may hold ids, messages, paths). */
export function note(text: string, style: Style = 'dim'): void {
  process.stderr.write(paint(style, inert(text), process.stderr) + '\n');
}

/** A duration for people: `850 ms`, `1.2 s`, `3 m 05 s`, `2 h 01 m`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} m`;
}

/** An API time (ISO string or epoch ms) as a local `YYYY-MM-DD HH:MM:SS`, or `-`. */
export function formatTime(value: string | number | null | undefined): string {
  const date = parseApiTime(value);
  if (!date) return '-';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Milliseconds between two API times; `until` null means now (a running run). */
export function elapsed(from: string | number | null | undefined, until: string | number | null | undefined): number | null {
  const start = parseApiTime(from);
  if (!start) return null;
  return (parseApiTime(until) ?? new Date()).getTime() - start.getTime();
}

const NO_BORDER = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** A borderless table with a dim upper-case header row, like `docker ps` or `kubectl get`. */
export function table(head: string[], rows: string[][]): string {
  const t = new Table({
    head: head.map((h) => paint('dim', h.toUpperCase())),
    chars: NO_BORDER,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  t.push(...rows);
  return `${t
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

/** Aligned `key  value` lines. */
export function keyValues(pairs: Array<[string, string]>): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${paint('dim', k.padEnd(width))}  ${v}\n`).join('');
}

/** A JSON value pretty-printed for people (2 spaces, made inert: {@link inertJson}), with a final newline. */
export function prettyJson(value: unknown): string {
  return `${value === undefined ? 'undefined' : inertJson(value, 2)}\n`;
}

/** Writes to stdout. */
export function out(text: string): void {
  process.stdout.write(text);
}

/** Writes one compact JSON document (made inert: {@link inertJson}) and a newline to stdout (`--json`). */
export function outJson(value: unknown): void {
  process.stdout.write(`${inertJson(value)}\n`);
}
