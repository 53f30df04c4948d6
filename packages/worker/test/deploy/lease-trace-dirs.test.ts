import { describe, expect, it } from 'vitest';
import { CATALOG_LEASE_TRACE_DIR_TTL_MS } from '@skein/names';
import { leaseTraceDirs } from '../../src/deploy/lease.js';

describe("a lease's list of its live workers' trace folders", () => {
  const now = 1_800_000_000_000;

  it("adds the worker's own folder stamped now, first, and carries the other workers' fresh folders", () => {
    const listed = [
      { dir: '/srv/b/traces', at: now - 4_000 },
      { dir: '/srv/a/traces', at: now - 20_000 },
    ];
    expect(leaseTraceDirs(listed, '/srv/c/traces', now)).toEqual([
      { dir: '/srv/c/traces', at: now },
      { dir: '/srv/b/traces', at: now - 4_000 },
      { dir: '/srv/a/traces', at: now - 20_000 },
    ]);
  });

  it('restamps a folder already listed instead of listing it twice', () => {
    expect(leaseTraceDirs([{ dir: '/srv/a/traces', at: now - 9_000 }], '/srv/a/traces', now)).toEqual([{ dir: '/srv/a/traces', at: now }]);
  });

  it('drops folders nobody wrote within the TTL, stamps far in the future, and anything malformed', () => {
    const listed = [
      { dir: '/srv/dead/traces', at: now - CATALOG_LEASE_TRACE_DIR_TTL_MS - 1 },
      { dir: '/srv/future/traces', at: now + CATALOG_LEASE_TRACE_DIR_TTL_MS + 1 },
      { dir: 42, at: now },
      { dir: '/srv/no-stamp/traces' },
      '/srv/plain-string/traces',
      null,
      { dir: '/srv/live/traces', at: now - 1_000 },
    ];
    expect(leaseTraceDirs(listed, null, now)).toEqual([{ dir: '/srv/live/traces', at: now - 1_000 }]);
    expect(leaseTraceDirs('not a list', null, now)).toEqual([]);
    expect(leaseTraceDirs(undefined, '/srv/own', now)).toEqual([{ dir: '/srv/own', at: now }]);
  });

  it('lists at most 32 folders, the most recently written first', () => {
    const listed = Array.from({ length: 40 }, (_, i) => ({ dir: `/srv/${i}`, at: now - i * 100 }));
    const kept = leaseTraceDirs(listed, null, now);
    expect(kept).toHaveLength(32);
    expect(kept[0]!.dir).toBe('/srv/0');
    expect(kept.at(-1)!.dir).toBe('/srv/31');
  });
});
