import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logError, logSerializers, rememberActivitySpan, temporalLogLine } from '../src/host/logger.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ name: 'skein-worker', serializers: logSerializers }, stream), lines };
}

describe('worker log lines', () => {
  it('serialize an error with name, message, stack and its cause chain, never as {}', () => {
    const { logger, lines } = capture();
    const cause = new TypeError('socket closed');
    const err = new Error('Workflow failed', { cause });
    logger.error({ err }, 'Workflow failed');
    const line = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(line.err).toMatchObject({ name: 'Error', message: 'Workflow failed', cause: { name: 'TypeError', message: 'socket closed' } });
    expect(String(line.err.stack)).toContain('Workflow failed');
    expect(String((line.err.cause as { stack: string }).stack)).toContain('socket closed');
  });

  it('carry exactly one name key, also on children', () => {
    const { logger, lines } = capture();
    logger.child({ component: 'bundle' }).info('bundled');
    expect(lines[0]!.match(/"name":/g)).toHaveLength(1);
  });

  it('pass values that are not errors through unchanged', () => {
    expect(logError('plain')).toBe('plain');
    expect(logError({ already: 'serialized' })).toEqual({ already: 'serialized' });
  });
});

describe("Temporal's own log lines", () => {
  it("carry the ids of the activity attempt's span they are about, logged after that span ended", () => {
    const { logger, lines } = capture();
    const ids = { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' };
    rememberActivitySpan('token-1', ids);
    rememberActivitySpan('token-untraced', {});
    const line = temporalLogLine(logger);
    const entry = (taskToken: string) => ({
      level: 'WARN' as const,
      message: 'Activity failed',
      timestampNanos: 0n,
      meta: { taskToken, error: new TypeError('boom') },
    });
    line(entry('token-1'));
    line(entry('token-untraced'));
    line({ level: 'ERROR', message: 'Workflow bundle failed', timestampNanos: 0n });
    const [failed, untraced, other] = lines.map((l) => JSON.parse(l));
    expect(failed).toMatchObject({
      level: 40,
      msg: 'Activity failed',
      ...ids,
      temporal: { taskToken: 'token-1', error: { name: 'TypeError', message: 'boom' } },
    });
    expect(untraced).not.toHaveProperty('trace_id');
    expect(other).toMatchObject({ level: 50, msg: 'Workflow bundle failed' });
    expect(other).not.toHaveProperty('trace_id');
  });

  it("say once per run, in one line without a stack, that a run's workflow is not in the code; repeats go to debug", () => {
    const { logger, lines } = capture();
    logger.level = 'debug';
    const line = temporalLogLine(logger);
    const failure = (runId: string) => ({
      level: 'ERROR' as const,
      message: 'Failed to process Workflow Activation',
      timestampNanos: 0n,
      meta: {
        runId,
        taskQueue: 'main',
        error: new TypeError("Failed to initialize workflow of type 'napper': no such function is exported by the workflow bundle"),
      },
    });
    line(failure('run-1'));
    line(failure('run-1'));
    line(failure('run-2'));
    const [first, again, other] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ level: 50, temporal: { runId: 'run-1', workflowType: 'napper', taskQueue: 'main' } });
    expect(first.msg).toMatch(/^a run of workflow "napper" \(run run-1\) cannot go on: this worker's code has no such workflow/);
    expect(JSON.stringify(first)).not.toContain('stack');
    expect(again).toMatchObject({ level: 20, msg: 'workflow task failed again: no such workflow' });
    expect(other).toMatchObject({ level: 50, temporal: { runId: 'run-2' } });
  });
});
