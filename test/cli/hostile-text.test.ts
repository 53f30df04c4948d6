import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../api/support.js';
import { skein } from './client-support.js';

/**
 * Text from the engine stays inert in the CLI: a run whose workflow id holds terminal escapes and a line break
 * (started straight on the engine, as any namespace client can) is listed by `skein workflow list` with those
 * characters written as visible escapes: no ESC reaches the terminal and no forged line appears. `--json` keeps the
 * exact id (JSON escapes) for scripts.
 */
let h: Harness;
const stamp = Date.now();
const hostileId = `evil-${stamp}\u001b[2J\u001b]0;pwned\u0007\nINFO forged log line\u009b31m\u202e`;

beforeAll(async () => {
  h = await startHarness();
  const handle = await h.client.workflow.start('echo', { taskQueue: h.catalog, workflowId: hostileId, args: [{ t: 1 }] });
  await handle.result();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('skein workflow list and a hostile workflow id', () => {
  it('prints the id with its control characters escaped, on one line', async () => {
    const res = await skein(h.url, ['workflow', 'list', '--catalog', h.catalog]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toContain('\u001b');
    expect(res.stdout).not.toContain('\u0007');
    expect(res.stdout).not.toContain('\u009b');
    expect(res.stdout).not.toContain('\u202e');
    expect(res.stdout.split('\n').some((line) => line.startsWith('INFO forged log line'))).toBe(false);
    const row = res.stdout.split('\n').find((line) => line.includes(`evil-${stamp}`));
    expect(row).toContain(`evil-${stamp}\\x1b[2J\\x1b]0;pwned\\x07\\nINFO forged log line\\x9b31m\\u202e`);
  });

  it('--json keeps the exact id, every active character written as a JSON escape', async () => {
    const res = await skein(h.url, ['workflow', 'list', '--catalog', h.catalog, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trimEnd()).not.toMatch(/[\p{Cc}\u202e]/u);
    const body = JSON.parse(res.stdout) as { runs: Array<{ workflowId: string }> };
    expect(body.runs.map((r) => r.workflowId)).toContain(hostileId);
  });
});
