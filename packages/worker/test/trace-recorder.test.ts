import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorkflowDetails } from '@skein/core';
import { traceFilePath } from '@skein/names/traces';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleTrace, type AssemblySources } from '../src/traces/assemble.js';
import { TraceRecorder, type TraceEngine } from '../src/traces/recorder.js';

/**
 * A detached child that closes after its root: its close reaches the worker (through the SDK's sinks) before the
 * engine records it, so its history may still read as running when the root's tree is assembled again; and the
 * root's own assembly, started earlier, may still be reading history when the child's begins. Histories here are
 * the shapes the engine returns, as in traces.test.ts; the engine itself is exercised by
 * test/traces/single-worker.test.ts.
 */
const payloads = (v: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(v)] });
const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

const ROOT = { workflowId: 'launch', runId: 'l1' };
const CHILD = { workflowId: 'launch-nap', runId: 'n1' };

/** The root started the child and closed; the child's history holds no close event yet. */
const rootHistory = [
  { eventId: 1, eventTime: at(1000), workflowExecutionStartedEventAttributes: { workflowType: { name: 'launcher' }, input: payloads(5) } },
  {
    eventId: 5,
    eventTime: at(1010),
    startChildWorkflowExecutionInitiatedEventAttributes: { workflowId: CHILD.workflowId, workflowType: { name: 'nap' }, input: payloads(5) },
  },
  { eventId: 6, eventTime: at(1020), childWorkflowExecutionStartedEventAttributes: { initiatedEventId: 5, workflowExecution: CHILD } },
  { eventId: 10, eventTime: at(1030), workflowExecutionCompletedEventAttributes: { result: payloads(CHILD) } },
];
const childOpen = [{ eventId: 1, eventTime: at(1020), workflowExecutionStartedEventAttributes: { workflowType: { name: 'nap' }, input: payloads(5) } }];
const childClosed = [...childOpen, { eventId: 9, eventTime: at(2500), workflowExecutionCompletedEventAttributes: { result: payloads('awake') } }];

const activity: AssemblySources['activity'] = (type) => ({ kind: 'step', name: type });

const details = (run: { workflowId: string; runId: string }, root: { workflowId: string; runId: string } | null): WorkflowDetails => ({
  attempt: 1,
  continuedFromExecutionRunId: null,
  firstExecutionRunId: run.runId,
  parent: null,
  root,
  runId: run.runId,
  runStartTime: 1000,
  startTime: 1000,
  workflowId: run.workflowId,
  workflowType: 'x',
});

describe('a detached child closing after its root', () => {
  it('is closed in the tree by its own outcome while its history still reads as running', async () => {
    const sources: AssemblySources = {
      history: async (w) => ({ events: w === ROOT.workflowId ? rootHistory : childOpen }) as never,
      activity,
      retries: () => undefined,
    };
    const open = await assembleTrace(ROOT, sources);
    expect(open.children).toMatchObject([{ kind: 'child_workflow', name: 'nap', status: 'running' }]);
    const closed = await assembleTrace(ROOT, sources, undefined, { ...CHILD, outcome: { output: 'awake', endedAt: 2500 } });
    expect(closed).toMatchObject({ status: 'completed', output: CHILD });
    expect(closed.children).toMatchObject([{ kind: 'child_workflow', name: 'nap', status: 'completed', output: 'awake', endedAt: 2500 }]);
    // Another run's outcome closes nothing.
    const other = await assembleTrace(ROOT, sources, undefined, { workflowId: CHILD.workflowId, runId: 'n0', outcome: { output: 'x', endedAt: 1 } });
    expect(other.children[0]!.status).toBe('running');
  });

  describe('through the recorder', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'skein-recorder-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    /** An engine whose history reads wait for `open()`, so a test decides when the assemblies read; `calls` in order. */
    function gatedEngine(child: object[]) {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const calls: string[] = [];
      const engine: TraceEngine = {
        history: async (w) => {
          calls.push(`history ${w}`);
          await gate;
          return { events: w === ROOT.workflowId ? rootHistory : child } as never;
        },
        describe: async (w) => {
          calls.push(`describe ${w}`);
          return { closed: true, destinations: { local: traceFilePath(dir, ROOT) } };
        },
      };
      return { engine, open, calls };
    }

    it('writes the child completed, after the root’s earlier assembly, which never overwrites it', async () => {
      const { engine, open, calls } = gatedEngine(childOpen);
      const errors: unknown[] = [];
      const recorder = new TraceRecorder(dir, engine, activity, [], (err) => errors.push(err));
      const local = traceFilePath(dir, ROOT);
      // The root closes; its assembly is still reading history when the child closes.
      const root = recorder.workflowFinished(details(ROOT, null), { output: CHILD }, { local });
      const child = recorder.workflowFinished(details(CHILD, ROOT), { output: 'awake' }, { local });
      await new Promise((r) => setTimeout(r, 50));
      // The child's delivery waits for the root's: nothing of it has been asked yet.
      expect(calls).toEqual([`history ${ROOT.workflowId}`]);
      open();
      await Promise.all([root, child]);
      expect(calls).toEqual([
        `history ${ROOT.workflowId}`,
        `history ${CHILD.workflowId}`,
        `describe ${ROOT.workflowId}`,
        `history ${ROOT.workflowId}`,
        `history ${CHILD.workflowId}`,
      ]);
      const trace = JSON.parse(await readFile(local, 'utf8'));
      expect(trace.tree).toMatchObject({ status: 'completed', output: CHILD });
      expect(trace.tree.children).toMatchObject([{ name: 'nap', status: 'completed', output: 'awake' }]);
      expect(errors).toEqual([]);
    });

    it('takes the child’s close from history once the engine has recorded it', async () => {
      const { engine, open } = gatedEngine(childClosed);
      const recorder = new TraceRecorder(dir, engine, activity);
      const local = traceFilePath(dir, ROOT);
      open();
      await recorder.workflowFinished(details(CHILD, ROOT), { output: 'as the worker saw it' }, { local });
      const trace = JSON.parse(await readFile(local, 'utf8'));
      expect(trace.tree.children).toMatchObject([{ name: 'nap', status: 'completed', output: 'awake', endedAt: 2500 }]);
    });

    it("writes a run the memo places in another folder (an earlier build's) in this worker's own folder only", async () => {
      const { engine, open } = gatedEngine(childClosed);
      const recorder = new TraceRecorder(dir, engine, activity);
      const started = await mkdtemp(path.join(tmpdir(), 'skein-recorder-v1-'));
      open();
      await recorder.workflowFinished(details(ROOT, null), { output: CHILD }, { local: traceFilePath(started, ROOT) });
      expect(JSON.parse(await readFile(traceFilePath(dir, ROOT), 'utf8')).tree).toMatchObject({ status: 'completed' });
      await expect(readFile(traceFilePath(started, ROOT), 'utf8')).rejects.toThrow(/ENOENT/);
      // A memo naming another run's file changes nothing: the root's own name in this worker's folder.
      const other = { workflowId: ROOT.workflowId, runId: 'someone-else' };
      await recorder.workflowFinished(details(ROOT, null), { output: CHILD }, { local: traceFilePath(dir, other) });
      await expect(readFile(traceFilePath(dir, other), 'utf8')).rejects.toThrow(/ENOENT/);
      await rm(started, { recursive: true, force: true });
    });

    it('runs the next delivery of a root after one that failed', async () => {
      let fail = true;
      const engine: TraceEngine = {
        history: async (w) => ({ events: w === ROOT.workflowId ? rootHistory : childClosed }) as never,
        describe: async () => {
          if (fail) throw new Error('engine unavailable');
          return { closed: true, destinations: { local: traceFilePath(dir, ROOT) } };
        },
      };
      const recorder = new TraceRecorder(dir, engine, activity);
      const local = traceFilePath(dir, ROOT);
      await expect(recorder.workflowFinished(details(CHILD, ROOT), { output: 'awake' }, { local })).rejects.toThrow('engine unavailable');
      fail = false;
      await recorder.workflowFinished(details(CHILD, ROOT), { output: 'awake' }, { local });
      expect(JSON.parse(await readFile(local, 'utf8')).tree.children).toMatchObject([{ name: 'nap', status: 'completed' }]);
    });
  });
});
