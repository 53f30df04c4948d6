import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryFileError, historyFiles, readHistoryFiles } from '../src/deploy/replay/history-files.js';

/** A whole (one-event) history as `skein workflow history --json` writes it. */
function history(workflowId: string, workflowType = 'approval'): string {
  return JSON.stringify({
    workflow: { workflowId, runId: `run-${workflowId}`, workflowType },
    events: [
      {
        eventId: 1,
        eventTime: '2026-01-01T00:00:00Z',
        eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED',
        workflowExecutionStartedEventAttributes: {
          workflowType: { name: workflowType },
          taskQueue: { name: 'main' },
          originalExecutionRunId: `run-${workflowId}`,
        },
      },
    ],
  });
}

/** Settles `promise`, or rejects after `ms`: a read that blocks fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('historyFiles', () => {
  it('skips a FIFO and a symbolic link in a folder without waiting on them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-history-files-'));
    writeFileSync(path.join(dir, 'a.json'), history('a'));
    execFileSync('mkfifo', [path.join(dir, 'b.json')]);
    symlinkSync(path.join(dir, 'a.json'), path.join(dir, 'c.json'));
    writeFileSync(path.join(dir, 'd.json'), history('d'));
    const skipped: string[] = [];
    const read = await within(readHistoryFiles(dir, { onSkip: (file, reason) => skipped.push(`${path.basename(file)}: ${reason}`) }), 5_000);
    expect(read.map((h) => h.workflowId)).toEqual(['a', 'd']);
    expect(skipped).toEqual(['b.json: not a regular file', 'c.json: not a regular file']);
  });

  it('refuses a named FIFO at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-history-fifo-'));
    const fifo = path.join(dir, 'h.json');
    execFileSync('mkfifo', [fifo]);
    const err = await within(readHistoryFiles(fifo), 5_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HistoryFileError);
    expect((err as Error).message).toBe(`${fifo}: not a regular file or a folder`);
  });

  it('refuses a file over the size limit without reading it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-history-big-'));
    const big = path.join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 2_000);
    await expect(readHistoryFiles(big, { maxBytes: 1_000 })).rejects.toThrow(`${big}: 2000 bytes, over the 1000-byte limit of a history file`);
  });

  it('reads lazily: a consumer that stops after n histories never reads the files after them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skein-history-lazy-'));
    writeFileSync(path.join(dir, '1.json'), history('one'));
    writeFileSync(path.join(dir, '2.json'), history('two'));
    // Read, this one would fail the whole listing.
    writeFileSync(path.join(dir, '3.json'), '{"not":"a history"}');
    const taken: string[] = [];
    for await (const h of historyFiles(dir)) {
      taken.push(h.workflowId);
      if (taken.length === 2) break;
    }
    expect(taken).toEqual(['one', 'two']);
    await expect(readHistoryFiles(dir)).rejects.toThrow('3.json: not a workflow history');
  });
});
