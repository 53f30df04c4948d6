import { describe, expect, it } from 'vitest';
import { pollsOnly, type VersionDescription } from '../../src/deploy/deployment.js';

const WORKFLOW = 1;
const ACTIVITY = 2;
const version = (...taskQueues: Array<[string, number]>): VersionDescription => ({
  taskQueues: taskQueues.map(([name, type]) => ({ name, type })),
  metadata: {},
});

describe('pollsOnly', () => {
  it("holds when every task queue of the version is the catalog's, for workflow and activity tasks alike", () => {
    expect(pollsOnly(version(['main', WORKFLOW], ['main', ACTIVITY]), 'main')).toBe(true);
    expect(pollsOnly(version(['main', WORKFLOW]), 'main')).toBe(true);
  });

  it('fails for a version that also polls another task queue, or only another one: the engine then checks before promoting', () => {
    expect(pollsOnly(version(['main', WORKFLOW], ['main', ACTIVITY], ['payments', ACTIVITY]), 'main')).toBe(false);
    expect(pollsOnly(version(['other', WORKFLOW]), 'main')).toBe(false);
  });

  it('fails when nothing is known: an unknown version, or one that lists no task queue', () => {
    expect(pollsOnly(undefined, 'main')).toBe(false);
    expect(pollsOnly(version(), 'main')).toBe(false);
  });
});
