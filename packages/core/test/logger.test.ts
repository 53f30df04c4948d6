import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger, LOG_LEVELS, type LogRecord } from '../src/index.js';
import { RESERVED_LOG_KEYS, logFields, setNodeLogSink } from '../src/internal.js';
import { Logger as WorkflowLogger } from '../src/workflow/index.js';

afterEach(() => vi.restoreAllMocks());

describe('logFields', () => {
  it('keeps the caller fields and moves reserved keys under fields, never dropping or overwriting', () => {
    expect(logFields(undefined, { a: 1, message: 'm', level: 9, workflowId: 'w' })).toEqual({ a: 1, fields: { message: 'm', level: 9, workflowId: 'w' } });
    expect(logFields('ns', { b: 2 })).toEqual({ namespace: 'ns', b: 2 });
    // The caller's own `namespace` wins over the logger's.
    expect(logFields('ns', { namespace: 'inline' })).toEqual({ namespace: 'inline' });
    expect(logFields(undefined, 'text')).toEqual({ fields: { value: 'text' } });
    expect(logFields(undefined, undefined)).toEqual({});
    for (const key of ['message', 'level', 'time', 'msg', 'runId', 'activityId', 'fields']) expect(RESERVED_LOG_KEYS.has(key)).toBe(true);
  });
});

describe('Logger in Node', () => {
  it('sends every level to the worker sink, with namespaced children', () => {
    const lines: LogRecord[] = [];
    const remove = setNodeLogSink((r) => lines.push(r));
    try {
      for (const level of LOG_LEVELS) Logger[level](`at ${level}`, { level, n: 1 });
      Logger.createLogger('Billing').info('charged', { amount: 3 });
    } finally {
      remove();
    }
    expect(lines.map((l) => `${l.level}:${l.message}`)).toEqual([...LOG_LEVELS.map((l) => `${l}:at ${l}`), 'info:charged']);
    expect(lines[0]!.fields).toEqual({ n: 1, fields: { level: 'error' } });
    expect(lines.at(-1)!.fields).toEqual({ namespace: 'Billing', amount: 3 });
  });

  it('writes to the console when no worker sink is installed, and a removed sink stays removed', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const remove = setNodeLogSink(() => {
      throw new Error('never called');
    });
    remove();
    Logger.info('hello', { a: 1 });
    Logger.http('request');
    expect(info).toHaveBeenCalledWith('hello', { a: 1 });
    expect(log).toHaveBeenCalledWith('request', {});
  });

  it('never throws, even when the sink does', () => {
    const remove = setNodeLogSink(() => {
      throw new Error('sink down');
    });
    try {
      expect(() => Logger.error('still fine')).not.toThrow();
    } finally {
      remove();
    }
  });
});

describe('Logger of the workflow entry outside a workflow run', () => {
  it('writes to the console (inside a run it goes through the skein.log sink)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    WorkflowLogger.warn('careful', { message: 'kept' });
    expect(warn).toHaveBeenCalledWith('careful', { fields: { message: 'kept' } });
    expect(typeof WorkflowLogger.createLogger('x').silly).toBe('function');
  });
});
