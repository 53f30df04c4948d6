import { describe, expect, it } from 'vitest';
import { deploymentState, pollsOnly, type VersionDescription } from '../../src/deploy/deployment.js';

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

describe('deploymentState', () => {
  // Temporal's enums: WorkerDeploymentVersionStatus CURRENT 3, DRAINING 5; VersionDrainageStatus DRAINING 1.
  const CURRENT = 3;
  const DRAINING = 5;
  const DRAINAGE_DRAINING = 1;
  const seconds = (s: number) => ({ seconds: s, nanos: 0 });

  it('takes current and ramping from the routing configuration when a summary lags behind a promotion', () => {
    // Just after `promote new`: the engine's summaries still call the old build current and the new one draining.
    const state = deploymentState('main', {
      routingConfig: { currentDeploymentVersion: { buildId: 'new' }, currentVersionChangedTime: seconds(1_800_000_000) },
      versionSummaries: [
        { deploymentVersion: { buildId: 'old' }, status: CURRENT, createTime: seconds(1_700_000_000), currentSinceTime: seconds(1_700_000_000) },
        { deploymentVersion: { buildId: 'new' }, status: DRAINING, drainageInfo: { status: DRAINAGE_DRAINING }, createTime: seconds(1_790_000_000) },
      ],
    } as never);
    expect(state.current).toBe('new');
    expect(state.versions.map((v) => [v.buildId, v.state, v.drainage, v.currentSince])).toEqual([
      ['new', 'current', null, 1_800_000_000_000],
      ['old', 'draining', null, 1_700_000_000_000],
    ]);
  });
});
