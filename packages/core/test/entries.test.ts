import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as authoring from '../src/index.js';
import * as internal from '../src/internal.js';

const WORKER_ONLY = [
  'dispatchLifecycle',
  'setHookErrorReporter',
  'drainHooks',
  'hasHooks',
  'clearHooks',
  'runInActivityScope',
  'currentActivityScope',
  'emptyAggregations',
  'workflowDetailsFrom',
  'WORKFLOW_DETAILS_HEADER',
  'serializeError',
  'MAX_CAUSE_DEPTH',
  'ATTEMPT_ERRORS_KEY',
  'isAttemptErrorsCarrier',
  'withoutAttemptErrors',
  'runActivity',
  'toActivityFailure',
  'setNodeLogSink',
  'RESERVED_LOG_KEYS',
  'logFields',
  'checkHttpRequest',
  'HTTP_REQUEST_ACTIVITY_OPTIONS',
  'performHttpRequest',
  'redactUrl',
  'redactHeaders',
  'hydrateHeaders',
  'HTTP_REQUEST_TIMEOUT_MS',
];

describe("the core's entries", () => {
  it('the main entry holds the authoring API and none of what only the worker uses', () => {
    expect(Object.keys(authoring)).toEqual(
      expect.arrayContaining(['workflow', 'step', 'evaluator', 'z', 'onWorkflowStart', 'emit', 'FatalError', 'NAME_PATTERN']),
    );
    expect(Object.keys(authoring).filter((name) => WORKER_ONLY.includes(name))).toEqual([]);
    // Trace paths are the workers' and the API's business, kept in @skein/names/traces.
    expect(Object.keys(authoring).filter((name) => /^trace(?!dFetch)|^TRACE_/.test(name))).toEqual([]);
  });

  it("@skein/core/internal holds the worker's share, from the same modules (one hook registry)", async () => {
    expect(Object.keys(internal).sort()).toEqual([...WORKER_ONLY].sort());
    let seen: unknown;
    authoring.on('probe', (event) => void (seen = event.payload));
    expect(internal.hasHooks('probe' as never)).toBe(false);
    authoring.emit('probe', 42);
    await internal.drainHooks(1_000);
    expect(seen).toBe(42);
    internal.clearHooks();
  });

  it('is published as the ./internal subpath', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.exports['./internal']).toEqual({ '@skein/source': './src/internal.ts', types: './dist/internal.d.ts', import: './dist/internal.js' });
  });
});
