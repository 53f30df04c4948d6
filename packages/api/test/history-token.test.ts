import { describe, expect, it } from 'vitest';
import { loadApiConfig } from '../src/config.js';
import { ApiError } from '../src/errors.js';
import { HistoryTokens, type HistoryCursor } from '../src/temporal/history-token.js';

const run = '01a1feb5-6305-7189-a3cf-53082e47aa2b';
const cursor: HistoryCursor = { w: 'order-1', r: run, t: Buffer.from('engine-token').toString('base64'), o: 7, n: 12 };
const KEY = 'k'.repeat(32);

function rejects(tokens: HistoryTokens, token: string, expect_: { workflowId: string; runId?: string }): string {
  try {
    tokens.decode(token, expect_);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).type).toBe('ValidationError');
    expect((err as ApiError).issues?.[0]?.path).toEqual(['query', 'pageToken']);
    return (err as ApiError).issues?.[0]?.message ?? '';
  }
  throw new Error(`token accepted: ${token}`);
}

describe('history page token', () => {
  it('round-trips the cursor (engine token, offset, next event id) as opaque base64', () => {
    const tokens = new HistoryTokens(KEY);
    const token = tokens.encode(cursor);
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(tokens.decode(token, { workflowId: 'order-1' })).toEqual(cursor);
    expect(tokens.decode(token, { workflowId: 'order-1', runId: run.toUpperCase() })).toEqual(cursor);
    expect(tokens.decode(tokens.encode({ ...cursor, t: null, o: 0 }), { workflowId: 'order-1' })).toEqual({ ...cursor, t: null, o: 0 });
  });

  it('rejects a token whose content was changed: the signature covers every field', () => {
    const tokens = new HistoryTokens(KEY);
    const body = JSON.parse(Buffer.from(tokens.encode(cursor), 'base64').toString('utf8')) as Record<string, unknown>;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    for (const change of [
      { o: 0 },
      { o: 8 },
      { n: 1 },
      { t: null },
      { t: Buffer.from('other').toString('base64') },
      { r: '01a1feb5-0000-7000-8000-000000000000' },
      { w: 'order-2' },
    ]) {
      expect(rejects(tokens, b64({ ...body, ...change }), { workflowId: String({ ...body, ...change }.w) })).toMatch(/signature does not match/);
    }
    const mac = Buffer.from(String(body.s), 'base64url');
    mac[0] = mac[0]! ^ 1;
    expect(rejects(tokens, b64({ ...body, s: mac.toString('base64url') }), { workflowId: 'order-1' })).toMatch(/signature does not match/);
  });

  it('rejects malformed and foreign tokens, and the unsigned tokens of earlier releases', () => {
    const tokens = new HistoryTokens(KEY);
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
    const { s: _s, ...unsigned } = JSON.parse(Buffer.from(tokens.encode(cursor), 'base64').toString('utf8')) as Record<string, unknown>;
    rejects(tokens, '***', { workflowId: 'order-1' });
    rejects(tokens, b64('not json'), { workflowId: 'order-1' });
    rejects(tokens, b64(unsigned), { workflowId: 'order-1' });
    rejects(tokens, b64({ v: 1, w: 'order-1', r: run, n: 1, t: null }), { workflowId: 'order-1' });
    expect(rejects(tokens, tokens.encode(cursor), { workflowId: 'order-2' })).toMatch(/another workflow execution/);
    expect(rejects(tokens, tokens.encode(cursor), { workflowId: 'order-1', runId: '01a1feb5-0000-7000-8000-000000000000' })).toMatch(/another run/);
  });

  it('API processes sharing a key accept each other’s tokens; a process with its own key refuses them', () => {
    const a = new HistoryTokens(KEY);
    const b = new HistoryTokens(KEY);
    expect(b.decode(a.encode(cursor), { workflowId: 'order-1' })).toEqual(cursor);
    const own = new HistoryTokens();
    expect(rejects(own, a.encode(cursor), { workflowId: 'order-1' })).toMatch(/SKEIN_HISTORY_TOKEN_KEY/);
    expect(rejects(new HistoryTokens(), own.encode(cursor), { workflowId: 'order-1' })).toMatch(/signature does not match/);
  });

  it('reads SKEIN_HISTORY_TOKEN_KEY: unset means a random key per process; a short key stops the process with one line', () => {
    expect(loadApiConfig({}).historyTokenKey).toBeNull();
    expect(loadApiConfig({ SKEIN_HISTORY_TOKEN_KEY: KEY }).historyTokenKey).toBe(KEY);
    expect(() => loadApiConfig({ SKEIN_HISTORY_TOKEN_KEY: 'short' })).toThrow(/^SKEIN_HISTORY_TOKEN_KEY must be 32 to 512 printable characters/);
  });
});
