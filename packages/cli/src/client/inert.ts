/**
 * Text from the engine made inert for a terminal. Workflow ids, types, error messages, build IDs and every other
 * string the API hands back were chosen by whoever started a run or wrote a worker: an ESC starts a terminal
 * escape sequence (recolour, retitle, rewrite the screen), a newline or carriage return forges a line of output,
 * and Unicode's bidirectional controls reorder what is shown. The CLI passes every such string through
 * {@link inert} (human output) or {@link inertJson} (JSON output) before it prints it.
 */

/**
 * What is never printed raw: C0 controls (U+0000–U+001F, newline and tab included), DEL, C1 controls
 * (U+0080–U+009F, among them the one-byte CSI), the bidirectional marks, embeddings, overrides and isolates
 * (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the line and paragraph separators (U+2028, U+2029) and
 * lone surrogates.
 */
const NOT_PRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;

/** The same characters outside the C0 range, which `JSON.stringify` already escapes. */
const NOT_PRINTABLE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/**
 * `text` with every non-printable character written as a visible escape: `\n`, `\r`, `\t`, `\xHH` up to U+00FF,
 * `\uHHHH` beyond (ESC becomes the four characters `\x1b`). Printable text, any script, is unchanged.
 * `null`/`undefined` become the empty string, numbers their decimal text.
 */
export function inert(text: string | number | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text).replace(NOT_PRINTABLE, (c) => NAMED[c] ?? (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * `JSON.stringify(value, null, indent)` that a terminal shows as it is: besides the control characters JSON
 * already escapes, DEL, C1 controls, bidirectional controls and the line separators are written as `\uHHHH`
 * escapes, so the text still parses to exactly `value`. `undefined` is written as `null`.
 */
export function inertJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value ?? null, null, indent) ?? 'null').replace(NOT_PRINTABLE_IN_JSON, (c) => `\\u${hex(c, 4)}`);
}
