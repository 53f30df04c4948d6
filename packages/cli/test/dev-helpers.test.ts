import { EngineUnavailableError } from '@skein/api';
import { WorkerStartupError } from '@skein/worker';
import { describe, expect, it } from 'vitest';
import { describeChange, describeWorkflowChanges } from '../src/dev/reloader.js';
import { explainError } from '../src/explain.js';
import { TemporalNotFoundError } from '@skein/dev-server';

describe('describeWorkflowChanges: the workflows a reload added and removed', () => {
  it('names them by name, a rename as one of each, and says nothing when the same ones are served', () => {
    expect(describeWorkflowChanges(['a', 'b'], ['b', 'a'])).toBe('');
    expect(describeWorkflowChanges(['a'], ['a', 'digest', 'audit'])).toBe('added digest, audit');
    expect(describeWorkflowChanges(['a', 'old'], ['a'])).toBe('removed old');
    expect(describeWorkflowChanges(['a', 'summarize'], ['a', 'summary'])).toBe('added summary; removed summarize');
  });
});

describe('describeChange: the "what changed" part of the reload line', () => {
  it('names one file relative to the project, or counts several', () => {
    expect(describeChange('/p', ['/p/summarize/steps.js'])).toBe('summarize/steps.js changed');
    expect(describeChange('/p', ['/p/a.js', '/p/b.js', '/p/c.js', '/p/d.js'])).toBe('4 files changed (a.js, b.js, c.js, ...)');
    expect(describeChange('/p', ['/elsewhere/pkg/steps.js'])).toBe('/elsewhere/pkg/steps.js changed');
    // A new folder and the file saved in it: one change.
    expect(describeChange('/p', ['/p/digest', '/p/digest/workflow.js'])).toBe('digest/workflow.js changed');
    expect(describeChange('/p', ['/p/digest'])).toBe('digest changed');
  });
});

describe('explainError: one line with the fix', () => {
  it('a port in use names the address and PORT', () => {
    const err = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3001'), { code: 'EADDRINUSE' });
    expect(explainError(err, { listen: '127.0.0.1:3001' })).toBe(
      '127.0.0.1:3001 is already in use: stop the process using it, or set PORT to another port (PORT=0 picks a free one)',
    );
  });

  it('a port in use names the flag that chose it', () => {
    const err = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4000'), { code: 'EADDRINUSE' });
    expect(explainError(err, { listen: '127.0.0.1:4000', portSetting: '--port' })).toBe(
      '127.0.0.1:4000 is already in use: stop the process using it, or pass another --port',
    );
    const denied = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES' });
    expect(explainError(denied, { listen: '0.0.0.0:80', portSetting: '--port' })).toBe('not allowed to listen on 0.0.0.0:80: choose a --port above 1023');
  });

  it('an unreachable engine hides the transport text and says how to get one', () => {
    for (const err of [
      new EngineUnavailableError('Cannot reach the Temporal server at 127.0.0.1:1: tonic::transport::Error(Transport, ConnectError)'),
      new WorkerStartupError('Cannot reach the Temporal server at 127.0.0.1:1: start one', 'tonic::transport::Error(...)'),
    ]) {
      const line = explainError(err);
      expect(line).toBe('cannot reach the Temporal server at 127.0.0.1:1: start one ("skein dev" runs its own) or set TEMPORAL_ADDRESS to a running server');
    }
  });

  it('a missing binary names the install command', () => {
    expect(explainError(new TemporalNotFoundError('No temporal binary found (PATH: none).'))).toMatch(/Fix: run "npx skein temporal install"/);
  });

  it('an invalid project keeps every finding', () => {
    const report = 'p: 2 error(s) in workflow packages; this code is not served, built or replayed until they are fixed.\nsteps.js\n  3:1 error ...';
    expect(explainError(new WorkerStartupError(report))).toBe(report);
  });
});
