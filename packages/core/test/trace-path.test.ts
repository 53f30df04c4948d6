import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACE_SEGMENT_MAX_BYTES, traceFilePath, traceSegment } from '../src/hooks/details.js';

describe('trace file names', () => {
  const dir = '/var/traces';

  it('never climbs out of the trace folder, whatever the workflow id holds', () => {
    for (const workflowId of ['..', '.', '../../etc', 'a/../../b', '/abs', '%2E%2E', '', 'x\ud800']) {
      const file = traceFilePath(dir, { workflowId, runId: 'r1' });
      expect(path.resolve(file).startsWith(`${dir}/`), workflowId).toBe(true);
      expect(path.dirname(path.resolve(file)), workflowId).toBe(path.join(dir, traceSegment(workflowId)));
    }
  });

  it('keeps readable names short and cuts long ones at an escape boundary, within the byte limit', () => {
    expect(traceSegment('order-42')).toBe('order-42');
    expect(traceSegment('a.b')).toBe('a%2Eb');
    const long = traceSegment('é'.repeat(500));
    expect(long.length).toBeLessThanOrEqual(TRACE_SEGMENT_MAX_BYTES);
    expect(long.endsWith('~')).toBe(true);
    expect(/%[0-9A-F]?~$/.test(long)).toBe(false);
    expect(Buffer.byteLength(traceSegment('x'.repeat(1000)))).toBeLessThanOrEqual(TRACE_SEGMENT_MAX_BYTES);
  });
});
