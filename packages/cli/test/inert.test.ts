import { describe, expect, it } from 'vitest';
import { inert, inertJson } from '../src/client/inert.js';
import { eventLine } from '../src/commands/workflow/history.js';
import { drawTree } from '../src/commands/workflow/trace.js';
import { outcomeLine, prettyJson, statusText } from '../src/client/output.js';

/** Every character a terminal acts on or reorders, as the helper must never let through. */
const ACTIVE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('inert', () => {
  it('writes terminal escapes, line breaks and other controls as visible escapes', () => {
    expect(inert('evil\u001b[2J\u001b]0;pwned\u0007')).toBe('evil\\x1b[2J\\x1b]0;pwned\\x07');
    expect(inert('a\nINFO forged line\r\tb')).toBe('a\\nINFO forged line\\r\\tb');
    expect(inert('del\u007f c1\u009b31m')).toBe('del\\x7f c1\\x9b31m');
    expect(inert('\u202eevil\u2066x\u2069\u2028')).toBe('\\u202eevil\\u2066x\\u2069\\u2028');
    expect(inert('lone \ud800 surrogate')).toBe('lone \\ud800 surrogate');
  });

  it('leaves printable text of any script as it is', () => {
    for (const text of ['order-42', 'Ünïcödé 名前 🙂', 'a\\x1b literal backslash', '']) expect(inert(text)).toBe(text);
    expect(inert(null)).toBe('');
    expect(inert(undefined)).toBe('');
    expect(inert(42)).toBe('42');
  });
});

describe('inertJson', () => {
  it('escapes what JSON leaves raw (DEL, C1, bidi controls, separators) and still parses to the same value', () => {
    const value = { id: 'a\u001b[31m\u007f\u009b\u202e\u2028b', n: 1, nested: ['\n'] };
    const text = inertJson(value);
    expect(text).not.toMatch(ACTIVE);
    expect(JSON.parse(text)).toEqual(value);
    expect(inertJson(value, 2).replaceAll('\n', '')).not.toMatch(ACTIVE);
    expect(JSON.parse(inertJson(value, 2))).toEqual(value);
    expect(inertJson(undefined)).toBe('null');
  });
});

describe('what the commands print from the engine', () => {
  const evil = 'evil\u001b[2J\nINFO forged';

  it('history lines, trace trees, outcome lines, statuses and JSON bodies hold no active character', () => {
    const line = eventLine({
      eventId: '1',
      eventTime: '2026-11-27T10:00:00Z',
      eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED',
      eventTypeName: 'ACTIVITY_TASK_SCHEDULED',
      stepName: evil,
    } as never);
    expect(line.slice(0, -1)).not.toMatch(ACTIVE);
    expect(line).toContain('evil\\x1b[2J\\nINFO forged');
    const tree = drawTree({ kind: 'workflow', name: evil, status: 'failed', error: { name: evil, message: evil }, children: [{ kind: 'step', name: evil }] });
    expect(tree.replaceAll('\n', '')).not.toMatch(ACTIVE);
    expect(tree.split('\n').filter(Boolean)).toHaveLength(2);
    expect(outcomeLine('completed', { workflowId: evil, runId: evil }, evil).slice(0, -1)).not.toMatch(ACTIVE);
    expect(statusText(evil)).not.toMatch(ACTIVE);
    expect(prettyJson({ output: `${evil}\u009b` }).replaceAll('\n', '')).not.toMatch(ACTIVE);
  });
});
