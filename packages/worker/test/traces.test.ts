import diagnostics from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, existsSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { traceObjectKey, traceObjectUrl } from '@skein/names/traces';
import { defaultPayloadConverter } from '@temporalio/common';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { assembleTrace, type AssemblySources } from '../src/traces/assemble.js';
import { sweepTraces } from '../src/traces/retention.js';
import { TraceSpool } from '../src/traces/spool.js';
import { S3TraceExporter } from '../src/traces/s3.js';
import { TRACE_EXPORT_CHANNEL } from '../src/traces/outcome.js';
import { DEFAULT_TRACE_RETENTION_MS, loadTraceConfig } from '../src/host/config.js';

const payloads = (v: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(v)] });
const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });
const failure = (message: string, cause?: object) => ({ message, applicationFailureInfo: { type: 'Error' }, ...(cause ? { cause } : {}) });

/** A root run: one step retried to its third attempt, one evaluator, one child run with a step of its own. */
const histories: Record<string, object[]> = {
  'root:r1': [
    { eventId: 1, eventTime: at(1000), workflowExecutionStartedEventAttributes: { workflowType: { name: 'flow' }, input: payloads({ a: 1, password: 'p' }) } },
    { eventId: 5, eventTime: at(1010), activityTaskScheduledEventAttributes: { activityId: '1', activityType: { name: 'flow#flaky' }, input: payloads('x') } },
    { eventId: 6, eventTime: at(1500), activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 3, lastFailure: failure('second') } },
    { eventId: 7, eventTime: at(1600), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads({ token: 't', ok: true }) } },
    {
      eventId: 11,
      eventTime: at(1700),
      activityTaskScheduledEventAttributes: { activityId: '2', activityType: { name: 'flow#judge' }, input: payloads(null) },
    },
    { eventId: 12, eventTime: at(1710), activityTaskStartedEventAttributes: { scheduledEventId: 11, attempt: 1 } },
    { eventId: 13, eventTime: at(1720), activityTaskFailedEventAttributes: { scheduledEventId: 11, failure: failure('bad', failure('cause')) } },
    {
      eventId: 17,
      eventTime: at(1800),
      startChildWorkflowExecutionInitiatedEventAttributes: { workflowId: 'root-kid', workflowType: { name: 'kid' }, input: payloads(7) },
    },
    {
      eventId: 18,
      eventTime: at(1810),
      childWorkflowExecutionStartedEventAttributes: { initiatedEventId: 17, workflowExecution: { workflowId: 'root-kid', runId: 'k1' } },
    },
    { eventId: 20, eventTime: at(1900), childWorkflowExecutionCompletedEventAttributes: { initiatedEventId: 17, result: payloads(8) } },
  ],
  'root-kid:k1': [
    { eventId: 1, eventTime: at(1810), workflowExecutionStartedEventAttributes: { workflowType: { name: 'kid' }, input: payloads(7) } },
    { eventId: 5, eventTime: at(1820), activityTaskScheduledEventAttributes: { activityId: '1', activityType: { name: 'kid#add' }, input: payloads(7) } },
    { eventId: 6, eventTime: at(1830), activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 1 } },
    { eventId: 7, eventTime: at(1840), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads(8) } },
    { eventId: 11, eventTime: at(1850), workflowExecutionCompletedEventAttributes: { result: payloads(8) } },
  ],
};

const sources = (retries: AssemblySources['retries'] = () => undefined): AssemblySources => ({
  history: async (w, r) => {
    const events = histories[`${w}:${r}`];
    if (!events) throw new Error('no such run');
    return { events } as never;
  },
  activity: (type) =>
    type.endsWith('#judge')
      ? { kind: 'evaluator', name: 'judge' }
      : type.includes('#')
        ? { kind: 'step', name: type.split('#')[1]! }
        : { kind: 'internal_step', name: type },
  retries,
});

describe('trace assembly from history', () => {
  it('builds the whole tree, child runs from their own history, closed by the closing worker’s outcome', async () => {
    const tree = await assembleTrace({ workflowId: 'root', runId: 'r1' }, sources(), { output: { done: true, secret: 's' }, endedAt: 2000 });
    expect(tree).toMatchObject({ kind: 'workflow', name: 'flow', status: 'completed', startedAt: 1000, endedAt: 2000, durationMs: 1000 });
    expect(tree.input).toEqual({ a: 1, password: '[REDACTED]' });
    expect(tree.output).toEqual({ done: true, secret: '[REDACTED]' });
    const [flaky, judge, kid] = tree.children;
    expect(flaky).toMatchObject({
      kind: 'step',
      name: 'flaky',
      activityId: '1',
      attempt: 3,
      startedAt: 1500,
      durationMs: 100,
      output: { token: '[REDACTED]', ok: true },
    });
    // Only the last earlier failure is in history.
    expect(flaky!.retries).toEqual([{ attempt: 2, error: { name: 'Error', type: 'Error', message: 'second' } }]);
    expect(judge).toMatchObject({ kind: 'evaluator', status: 'failed', error: { name: 'Error', message: 'bad', cause: { message: 'cause' } } });
    expect(kid).toMatchObject({
      kind: 'child_workflow',
      name: 'kid',
      workflowId: 'root-kid',
      runId: 'k1',
      status: 'completed',
      input: 7,
      output: 8,
      endedAt: 1850,
    });
    expect(kid!.children).toMatchObject([{ kind: 'step', name: 'add', status: 'completed', output: 8 }]);
  });

  it('adds the attempt errors this worker saw to the retries', async () => {
    const seen = [
      { attempt: 1, error: { name: 'Error', message: 'first' } },
      { attempt: 2, error: { name: 'Error', message: 'second' } },
    ];
    const tree = await assembleTrace(
      { workflowId: 'root', runId: 'r1' },
      sources((k) => (k === 'root:r1:1' ? seen : undefined)),
    );
    expect(tree.children[0]!.retries).toEqual(seen);
    expect(tree.status).toBe('running');
  });

  it('reads the attempts that ran on other workers from the failures in history, and counts those beyond the bound', async () => {
    const carrier = (attempts: number[], dropped = 0) => ({
      payloads: [
        defaultPayloadConverter.toPayload({
          $skeinAttemptErrors: { errors: attempts.map((n) => ({ attempt: n, error: { name: 'Error', message: `a${n}` } })), dropped },
        }),
      ],
    });
    const carried = (message: string, details: object) => ({ message, applicationFailureInfo: { type: 'Error', details } });
    histories['far:f1'] = [
      { eventId: 1, eventTime: at(1000), workflowExecutionStartedEventAttributes: { workflowType: { name: 'flow' } } },
      { eventId: 5, eventTime: at(1010), activityTaskScheduledEventAttributes: { activityId: '1', activityType: { name: 'flow#flaky' } } },
      { eventId: 6, eventTime: at(1500), activityTaskStartedEventAttributes: { scheduledEventId: 5, attempt: 4, lastFailure: carried('a3', carrier([1, 2])) } },
      { eventId: 7, eventTime: at(1600), activityTaskCompletedEventAttributes: { scheduledEventId: 5, result: payloads(1) } },
      { eventId: 8, eventTime: at(1610), activityTaskScheduledEventAttributes: { activityId: '2', activityType: { name: 'flow#flaky' } } },
      {
        eventId: 9,
        eventTime: at(1700),
        activityTaskStartedEventAttributes: {
          scheduledEventId: 8,
          attempt: 30,
          lastFailure: carried('a29', carrier([1, 2, 3, 4, 5, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28], 8)),
        },
      },
      { eventId: 10, eventTime: at(1800), activityTaskFailedEventAttributes: { scheduledEventId: 8, failure: failure('a30') } },
    ];
    try {
      const tree = await assembleTrace({ workflowId: 'far', runId: 'f1' }, sources());
      const [three, many] = tree.children;
      expect(three!.retries).toEqual([
        { attempt: 1, error: { name: 'Error', message: 'a1' } },
        { attempt: 2, error: { name: 'Error', message: 'a2' } },
        { attempt: 3, error: { name: 'Error', type: 'Error', message: 'a3' } },
      ]);
      expect(three!.retriesDropped).toBeUndefined();
      expect(many!.retries!.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, ...Array.from({ length: 16 }, (_, i) => 14 + i)]);
      expect(many!.retriesDropped).toBe(8);
      expect(many!.error).toEqual({ name: 'Error', type: 'Error', message: 'a30' });
    } finally {
      delete histories['far:f1'];
    }
  });

  it('keeps the parent’s view of a child whose history cannot be read', async () => {
    const saved = histories['root-kid:k1'];
    delete histories['root-kid:k1'];
    try {
      const tree = await assembleTrace({ workflowId: 'root', runId: 'r1' }, sources());
      expect(tree.children[2]).toMatchObject({ kind: 'child_workflow', status: 'completed', output: 8, children: [] });
    } finally {
      histories['root-kid:k1'] = saved!;
    }
  });
});

describe('trace retention', () => {
  it('deletes trace files older than the retention and the folders left empty', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-sweep-'));
    mkdirSync(path.join(dir, 'old'));
    mkdirSync(path.join(dir, 'mixed'));
    for (const f of ['old/r1.json', 'mixed/r2.json', 'mixed/r3.json']) writeFileSync(path.join(dir, f), '{}');
    const now = Date.now();
    const tenDaysAgo = (now - 10 * 86_400_000) / 1000;
    utimesSync(path.join(dir, 'old/r1.json'), tenDaysAgo, tenDaysAgo);
    utimesSync(path.join(dir, 'mixed/r2.json'), tenDaysAgo, tenDaysAgo);
    expect(await sweepTraces(dir, DEFAULT_TRACE_RETENTION_MS, now)).toBe(2);
    expect(existsSync(path.join(dir, 'old'))).toBe(false);
    expect(readdirSync(path.join(dir, 'mixed'))).toEqual(['r3.json']);
    expect(await sweepTraces(path.join(dir, 'missing'), 1)).toBe(0);
  });
});

describe('upload spool', () => {
  it('keeps traces on disk until sent; a claim is exclusive, released on failure, reclaimed when stale and sent in the same pass', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-spool-'));
    const a = new TraceSpool(dir, 'a');
    const b = new TraceSpool(dir, 'b');
    await a.put({ key: 'k1', workflowId: 'w', runId: 'r', spooledAt: 1, body: '{}' });
    const claims = [];
    for await (const c of a.claims(() => {})) claims.push(c);
    expect(claims.map((c) => c.item.key)).toEqual(['k1']);
    const none = [];
    for await (const c of b.claims(() => {})) none.push(c);
    expect(none).toEqual([]);
    await claims[0]!.release();
    const again = [];
    for await (const c of b.claims(() => {})) again.push(c);
    expect(again.map((c) => c.item.key)).toEqual(['k1']);
    // b dies holding the claim: while it is young, a leaves it and counts it; once it is a minute old, a takes it
    // back and claims it in the same pass.
    for await (const c of a.claims(() => {})) expect.unreachable(`claimed ${c.item.key} while it was young`);
    expect(a.youngClaims).toBe(1);
    const [held] = readdirSync(dir);
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(path.join(dir, held!), old, old);
    const reclaimed = [];
    for await (const c of a.claims(() => {})) reclaimed.push(c);
    expect(reclaimed.map((c) => c.item.key)).toEqual(['k1']);
    expect(a.youngClaims).toBe(0);
    await reclaimed[0]!.done();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("dates a claim from its claiming: a trace spooled long ago and claimed now is not another worker's to take", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-spool-age-'));
    const a = new TraceSpool(dir, 'a');
    const file = await a.put({ key: 'k1', workflowId: 'w', runId: 'r', spooledAt: 1, body: '{}' });
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(file, old, old); // spooled two minutes ago (an upload retried through an outage)
    const claimed = [];
    for await (const c of a.claims(() => {})) claimed.push(c);
    expect(claimed).toHaveLength(1);
    for await (const c of new TraceSpool(dir, 'b').claims(() => {})) expect.unreachable(`took ${c.item.key} from a live claim`);
  });

  it('drops an unreadable entry and says so', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-spool-bad-'));
    writeFileSync(path.join(dir, 'x.json'), 'not json');
    const bad: string[] = [];
    for await (const c of new TraceSpool(dir, 'a').claims((f) => bad.push(f))) expect.unreachable(c.item.key);
    expect(bad).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('the S3 sender and its spool across restarts', () => {
  const location = { bucket: 'b', prefix: 'p/', endpoint: 'http://127.0.0.1:1' };
  const tree = { kind: 'workflow', name: 'wf', status: 'completed', startedAt: 1, endedAt: 2, durationMs: 1, children: [] } as const;
  const trace = { version: 1 as const, root: { workflowId: 'w', runId: 'r' }, updatedAt: 0, tree };
  const remote = traceObjectUrl(location, traceObjectKey('p/', { workflowType: 'wf', workflowId: 'w', startedAt: 1 }));

  it('hands the trace of an upload that does not end by stop() back to the spool, for the next start', async () => {
    const spool = mkdtempSync(path.join(tmpdir(), 'skein-s3-stuck-'));
    const hung = { send: () => new Promise(() => {}) } as unknown as S3Client; // storage that accepts and never answers
    const exporter = new S3TraceExporter(location, hung, spool, pino({ level: 'silent' }));
    await exporter.export(trace, { remote });
    await expect.poll(() => readdirSync(spool).some((f) => /\.json\..+$/.test(f))).toBe(true); // claimed, uploading
    await exporter.stop(50);
    expect(readdirSync(spool).filter((f) => !f.endsWith('.tmp'))).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.json$/)]);
  });

  it('sends a trace another worker claimed and never sent once that claim is stale, without waiting for a failure', async () => {
    const spool = mkdtempSync(path.join(tmpdir(), 'skein-s3-stale-'));
    const dead = new TraceSpool(spool, 'dead');
    await dead.put({ key: 'p/left.json', workflowId: 'w', runId: 'r', spooledAt: Date.now(), body: '{}' });
    for await (const c of dead.claims(() => {})) expect(c.item.key).toBe('p/left.json'); // claimed, then its worker died
    const sent: string[] = [];
    const storage = { send: async (command: { input: { Key: string } }) => void sent.push(command.input.Key) } as unknown as S3Client;
    const exporter = new S3TraceExporter(location, storage, spool, pino({ level: 'silent' }), { staleClaimMs: 300 });
    try {
      exporter.start();
      await expect.poll(() => sent, { timeout: 5_000 }).toEqual(['p/left.json']);
      expect(readdirSync(spool)).toEqual([]);
    } finally {
      await exporter.stop();
    }
  });
});

describe('trace settings', () => {
  it('reads the S3 destination, spool and retention, with defaults', () => {
    expect(loadTraceConfig({})).toEqual({ dir: undefined, s3: null, spoolDir: undefined, retentionMs: 7 * 86_400_000 });
    expect(loadTraceConfig({ SKEIN_TRACE_S3_BUCKET: 'b', SKEIN_TRACE_S3_PREFIX: 'p/', SKEIN_TRACE_RETENTION: '12h', SKEIN_TRACE_DIR: 'off' })).toMatchObject({
      dir: 'off',
      s3: { bucket: 'b', prefix: 'p/' },
      retentionMs: 12 * 3_600_000,
    });
    expect(loadTraceConfig({ SKEIN_TRACE_RETENTION: '5000' }).retentionMs).toBe(5000);
    expect(() => loadTraceConfig({ SKEIN_TRACE_RETENTION: 'soon' })).toThrow(/SKEIN_TRACE_RETENTION/);
  });
});

describe('S3 destination', () => {
  it("uploads only to the run's own object: a memo naming another run's object goes there, another bucket is refused", async () => {
    const spool = mkdtempSync(path.join(tmpdir(), 'skein-s3-refuse-'));
    const location = { bucket: 'b', prefix: 'p/', endpoint: 'http://127.0.0.1:1' };
    const exporter = new S3TraceExporter(location, new S3Client({ region: 'us-east-1' }), spool, pino({ level: 'silent' }));
    const outcomes: unknown[] = [];
    const listen = (o: unknown) => outcomes.push(o);
    diagnostics.subscribe(TRACE_EXPORT_CHANNEL, listen);
    /** The object keys of the spooled traces (the spool names each file by a hash of its key). */
    const spooledKeys = () =>
      readdirSync(spool)
        .filter((f) => f.endsWith('.json'))
        .map((f) => (JSON.parse(readFileSync(path.join(spool, f), 'utf8')) as { key: string }).key);
    try {
      const tree = { kind: 'workflow', name: 'wf', status: 'completed', startedAt: 1, endedAt: 2, durationMs: 1, children: [] } as const;
      const trace = { version: 1 as const, root: { workflowId: 'mine', runId: 'r' }, updatedAt: 0, tree };
      const own = traceObjectKey('p/', { workflowType: 'wf', workflowId: 'mine', startedAt: 1 });
      // Another bucket: no remote destination here.
      await exporter.export(trace, { remote: traceObjectUrl({ ...location, bucket: 'c' }, own) });
      await exporter.export(trace, { remote: traceObjectUrl({ ...location, prefix: 'q/' }, 'q/x.json') });
      expect(readdirSync(spool)).toEqual([]);
      expect(outcomes).toEqual(Array(2).fill(expect.objectContaining({ destination: 'remote', workflowId: 'mine', ok: false, final: true })));
      // Another run's object in this bucket (another id, another start of the same id, another type): the upload
      // still goes to the run's own object, derived from the root's type, id and start.
      for (const other of [
        { workflowType: 'wf', workflowId: 'theirs', startedAt: 1 },
        { workflowType: 'wf', workflowId: 'mine', startedAt: 2 },
        { workflowType: 'other', workflowId: 'mine', startedAt: 1 },
      ]) {
        await exporter.export(trace, { remote: traceObjectUrl(location, traceObjectKey('p/', other)) });
      }
      expect(new Set(spooledKeys())).toEqual(new Set([own]));
      // A run made by a reset (its root node names the original run) has an object of its own.
      const resetTrace = { ...trace, root: { workflowId: 'mine', runId: 'r2' }, tree: { ...tree, originalRunId: 'r' } };
      await exporter.export(resetTrace, { remote: traceObjectUrl(location, own) });
      expect(new Set(spooledKeys())).toEqual(new Set([own, traceObjectKey('p/', { workflowType: 'wf', workflowId: 'mine', startedAt: 1, runId: 'r2' })]));
    } finally {
      diagnostics.unsubscribe(TRACE_EXPORT_CHANNEL, listen);
      await exporter.stop();
    }
  });
});
