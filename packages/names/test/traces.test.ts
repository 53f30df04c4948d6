import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TRACE_SEGMENT_MAX_BYTES,
  resetRunId,
  rootTraceObjectKey,
  traceDestinationsOf,
  traceFilePath,
  traceFolderOf,
  traceObjectKey,
  traceObjectKeyFromUrl,
  traceObjectUrl,
  traceSegment,
} from '../src/traces.js';

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

describe('trace objects', () => {
  it("names a root's object by its type, UTC date, start and workflow id; only exactly that object is the root's", () => {
    const startedAt = Date.UTC(2026, 10, 25, 13, 0, 0, 5);
    const root = { workflowType: 'fleet', workflowId: 'wf 1', startedAt };
    const key = traceObjectKey('traces/', root);
    expect(key).toBe(`traces/fleet/2026/11/25/${startedAt}_wf%201.json`);
    const minio = { bucket: 'b', prefix: 'traces/', endpoint: 'http://127.0.0.1:9000' };
    const url = traceObjectUrl(minio, key);
    expect(url).toBe(`http://127.0.0.1:9000/b/traces/fleet/2026/11/25/${startedAt}_wf%25201.json`);
    expect(rootTraceObjectKey(minio, url, root)).toBe(key);
    // The key is derived from the root, never taken from the memo's URL: a URL naming another run's object (another
    // start of the same id, another id or type) still yields this root's own key.
    expect(rootTraceObjectKey(minio, url, { ...root, workflowId: 'wf 2' })).toBe(traceObjectKey('traces/', { ...root, workflowId: 'wf 2' }));
    expect(rootTraceObjectKey(minio, url, { ...root, startedAt: startedAt + 1 })).toBe(traceObjectKey('traces/', { ...root, startedAt: startedAt + 1 }));
    expect(rootTraceObjectKey(minio, traceObjectUrl(minio, `traces/x/${startedAt}_wf%201.json`), root)).toBe(key);
    // A URL outside the bucket and prefix means no remote destination here.
    expect(rootTraceObjectKey({ ...minio, bucket: 'c' }, url, root)).toBeUndefined();
    expect(rootTraceObjectKey({ ...minio, prefix: 'other/' }, url, root)).toBeUndefined();
    expect(rootTraceObjectKey(minio, 'http://127.0.0.1:9000/b/traces/../secret_wf%201.json', root)).toBeUndefined();
    expect(rootTraceObjectKey(minio, 'http://169.254.169.254/b/traces/x_wf%201.json', root)).toBeUndefined();
    expect(rootTraceObjectKey(minio, 'http://127.0.0.1:9000/b/traces/%E0%A4%A_wf%201.json', root)).toBeUndefined();
  });

  it("names a reset run's object by its run id too, so it never replaces the one of the run it was reset from", () => {
    const root = { workflowType: 'fleet', workflowId: 'wf', startedAt: 1 };
    expect(resetRunId('r2', 'r1')).toBe('r2');
    expect(resetRunId('r1', 'r1')).toBeUndefined();
    expect(resetRunId('r1', '')).toBeUndefined();
    expect(traceObjectKey('p/', { ...root, runId: resetRunId('r/2', 'r1') })).toBe('p/fleet/1970/01/01/1_wf@r%2F2.json');
    expect(traceObjectKey('p/', { ...root, runId: resetRunId('r1', 'r1') })).toBe('p/fleet/1970/01/01/1_wf.json');
    // `@` is escaped in a segment, so no workflow id reads as another id's reset run.
    expect(traceObjectKey('p/', { ...root, workflowId: 'wf@r2' })).toBe('p/fleet/1970/01/01/1_wf%40r2.json');
  });

  it('addresses objects virtual-hosted on AWS, by region', () => {
    const aws = { bucket: 'b', prefix: '', region: 'eu-west-1' };
    const awsRoot = { workflowType: 'fleet', workflowId: 'wf', startedAt: 1 };
    const awsKey = traceObjectKey('', awsRoot);
    const awsUrl = traceObjectUrl(aws, awsKey);
    expect(awsUrl).toBe('https://b.s3.eu-west-1.amazonaws.com/fleet/1970/01/01/1_wf.json');
    expect(traceObjectUrl({ bucket: 'b', prefix: '' }, 'k_wf.json')).toBe('https://b.s3.amazonaws.com/k_wf.json');
    expect(rootTraceObjectKey(aws, awsUrl, awsRoot)).toBe(awsKey);
    expect(rootTraceObjectKey({ ...aws, region: 'us-east-1' }, awsUrl, awsRoot)).toBeUndefined();
  });

  it("reads a run's destinations from its memo: non-empty strings only", () => {
    expect(traceDestinationsOf({ memo: { skeinTrace: { local: '/t/wf/r.json', remote: 'https://b.s3.amazonaws.com/k_wf.json' } } })).toEqual({
      local: '/t/wf/r.json',
      remote: 'https://b.s3.amazonaws.com/k_wf.json',
    });
    expect(traceDestinationsOf({ memo: { skeinTrace: { local: '', remote: 42 } } })).toEqual({});
    expect(traceDestinationsOf({ memo: {} })).toEqual({});
    expect(traceDestinationsOf({})).toEqual({});
  });

  it("with the root's ids, names the root's own file in the folder the memo names (a reset run's memo names the run it came from)", () => {
    const memo = { skeinTrace: { local: traceFilePath('/t/traces', { workflowId: 'wf', runId: 'original' }), remote: 'https://b/k' } };
    expect(traceDestinationsOf({ memo }, { workflowId: 'wf', runId: 'after-reset' })).toEqual({
      local: traceFilePath('/t/traces', { workflowId: 'wf', runId: 'after-reset' }),
      remote: 'https://b/k',
    });
    // Whatever the ids hold, the file stays in that folder; a path that is no trace file is kept as named.
    expect(traceDestinationsOf({ memo }, { workflowId: '../..', runId: '../x' }).local).toBe('/t/traces/%2E%2E%2F%2E%2E/%2E%2E%2Fx.json');
    expect(traceDestinationsOf({ memo: { skeinTrace: { local: 'r.json' } } }, { workflowId: 'wf', runId: 'r' })).toEqual({ local: 'r.json' });
  });

  it("with a reset root, names the reset run's own object: the key the uploader and the reader derive", () => {
    const location = { bucket: 'b', prefix: 'p/', endpoint: 'http://s3:8333' };
    const root = { workflowType: 'fleet', workflowId: 'w@1', startedAt: 5 };
    const memo = { skeinTrace: { remote: traceObjectUrl(location, traceObjectKey('p/', root)) } };
    const own = traceDestinationsOf({ memo }, { workflowId: 'w@1', runId: 'r/2', reset: true }).remote!;
    expect(traceObjectKeyFromUrl(location, own)).toBe(traceObjectKey('p/', { ...root, runId: 'r/2' }));
    // Not a reset (or named already): the memo's object as it is.
    expect(traceDestinationsOf({ memo }, { workflowId: 'w@1', runId: 'r/2' }).remote).toBe(memo.skeinTrace.remote);
    expect(traceDestinationsOf({ memo: { skeinTrace: { remote: own } } }, { workflowId: 'w@1', runId: 'r/2', reset: true }).remote).toBe(own);
  });

  it('traceFolderOf is the inverse of traceFilePath', () => {
    expect(traceFolderOf(traceFilePath('/var/t/', { workflowId: 'a/b', runId: 'c' }))).toBe('/var/t');
    expect(traceFolderOf('/a/b.json')).toBeUndefined();
    expect(traceFolderOf('/a/b/c.txt')).toBeUndefined();
  });
});

describe('trace names, exactly', () => {
  it('names an empty id `_`, keeps a segment of exactly the limit and cuts longer ones to limit - 1 and `~`', () => {
    expect(traceSegment('')).toBe('_');
    expect(traceSegment('x'.repeat(TRACE_SEGMENT_MAX_BYTES))).toBe('x'.repeat(TRACE_SEGMENT_MAX_BYTES));
    expect(traceSegment('x'.repeat(1000))).toBe(`${'x'.repeat(TRACE_SEGMENT_MAX_BYTES - 1)}~`);
    // An escape starting at the cut or just before it is dropped whole; one that ends before the cut is kept.
    expect(traceSegment(`${'x'.repeat(200)}é`)).toBe(`${'x'.repeat(199)}~`);
    expect(traceSegment(`${'x'.repeat(198)}é`)).toBe(`${'x'.repeat(198)}~`);
    expect(traceSegment(`${'x'.repeat(196)}${'é'.repeat(10)}`)).toBe(`${'x'.repeat(196)}%C3~`);
  });

  it('drops every trailing slash of the folder and of the endpoint', () => {
    expect(traceFilePath('/var/traces//', { workflowId: 'wf', runId: 'r' })).toBe('/var/traces/wf/r.json');
    expect(traceFilePath('/var/traces', { workflowId: 'wf', runId: 'r' })).toBe('/var/traces/wf/r.json');
    expect(traceObjectUrl({ bucket: 'b', prefix: '', endpoint: 'http://127.0.0.1:9000//' }, 'k.json')).toBe('http://127.0.0.1:9000/b/k.json');
  });

  it('pads month and day to two digits, in UTC', () => {
    expect(traceObjectKey('', { workflowType: 'wf', workflowId: 'id', startedAt: Date.UTC(2026, 0, 5, 23, 59) })).toBe(
      `wf/2026/01/05/${Date.UTC(2026, 0, 5, 23, 59)}_id.json`,
    );
  });

  it('addresses us-east-1 as AWS does, without the region in the host', () => {
    expect(traceObjectUrl({ bucket: 'b', prefix: '', region: 'us-east-1' }, 'k.json')).toBe('https://b.s3.amazonaws.com/k.json');
    expect(traceObjectUrl({ bucket: 'b', prefix: '', region: 'eu-west-1' }, 'k.json')).toBe('https://b.s3.eu-west-1.amazonaws.com/k.json');
  });

  it('is no object key when the URL names the prefix alone', () => {
    const minio = { bucket: 'b', prefix: 'traces/', endpoint: 'http://127.0.0.1:9000' };
    expect(traceObjectKeyFromUrl(minio, 'http://127.0.0.1:9000/b/traces/')).toBeUndefined();
    expect(traceObjectKeyFromUrl(minio, 'http://127.0.0.1:9000/b/traces/x')).toBe('traces/x');
  });

  it('is no object key when a segment is `..`; dots inside a name and empty segments are kept', () => {
    const minio = { bucket: 'b', prefix: 'traces/', endpoint: 'http://127.0.0.1:9000' };
    expect(traceObjectKeyFromUrl(minio, 'http://127.0.0.1:9000/b/traces/../x')).toBeUndefined();
    expect(traceObjectKeyFromUrl(minio, 'http://127.0.0.1:9000/b/traces/a..b')).toBe('traces/a..b');
    expect(traceObjectKeyFromUrl(minio, 'http://127.0.0.1:9000/b/traces//x')).toBe('traces//x');
  });
});
