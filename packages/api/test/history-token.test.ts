import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/errors.js';
import { decodeCursor, encodeCursor } from '../src/temporal/history-token.js';

const run = '01a1feb5-6305-7189-a3cf-53082e47aa2b';
const cursor = { w: 'order-1', r: run, n: 12, t: Buffer.from('engine-token').toString('base64') };

function rejects(token: string, expect_: { workflowId: string; runId?: string }) {
  try {
    decodeCursor(token, expect_);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).issues?.[0]?.path).toEqual(['query', 'pageToken']);
    return;
  }
  throw new Error(`token accepted: ${token}`);
}

describe('history page token', () => {
  it('round-trips and is opaque base64', () => {
    const token = encodeCursor(cursor);
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeCursor(token, { workflowId: 'order-1' })).toEqual(cursor);
    expect(decodeCursor(token, { workflowId: 'order-1', runId: run.toUpperCase() })).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, t: null }), { workflowId: 'order-1' }).t).toBeNull();
  });

  it('rejects forged, malformed and foreign tokens with a 400', () => {
    const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64');
    rejects('***', { workflowId: 'order-1' });
    rejects(b64('not json'), { workflowId: 'order-1' });
    rejects(b64({ v: 1 }), { workflowId: 'order-1' });
    rejects(b64({ v: 2, w: 'order-1', r: run, n: 1, t: null }), { workflowId: 'order-1' });
    rejects(b64({ v: 1, w: 'order-1', r: 'not-a-uuid', n: 1, t: null }), { workflowId: 'order-1' });
    rejects(b64({ v: 1, w: 'order-1', r: run, n: 0, t: null }), { workflowId: 'order-1' });
    rejects(b64({ v: 1, w: 'order-1', r: run, n: 1, t: 'not base64!' }), { workflowId: 'order-1' });
    rejects(encodeCursor(cursor), { workflowId: 'order-2' });
    rejects(encodeCursor(cursor), { workflowId: 'order-1', runId: '01a1feb5-0000-7000-8000-000000000000' });
  });
});
