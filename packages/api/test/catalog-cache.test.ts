/**
 * `CatalogCache` against a scripted engine (the executions it describes, each call counted): a catalog's head names
 * its build and version, the workflows come from that build's record, read once per catalog and version, and only
 * from a record that is what it claims to be. The same paths against a real engine: test/api/metrics.test.ts and
 * test/api/reserved-records.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { CatalogCache, SERVED_VERSIONS_KEPT } from '../src/temporal/catalog.js';
import { ApiError } from '../src/errors.js';

interface Execution {
  type: string;
  taskQueue: string;
  runId?: string;
  status?: 'RUNNING' | 'TERMINATED';
  memo?: Record<string, unknown>;
}

const V1 = '1'.repeat(64);
const workflow = (name: string) => ({ name, aliases: [], description: null, inputSchema: null, outputSchema: null, activities: [] });
const head = (catalog: string, buildId: string, version = V1) => ({ catalog, version, publishedAt: 1, identity: 'w', deployment: { name: catalog, buildId } });
const record = (catalog: string, buildId: string, names: string[], version = V1) => ({
  ...head(catalog, buildId, version),
  workflows: names.map(workflow),
  sharedActivities: [],
});

/** An engine holding `executions` by workflow id; `describes` counts the describe calls per id. */
function scriptedEngine(executions: Record<string, Execution>) {
  const describes = new Map<string, number>();
  const client = {
    options: { namespace: 'default' },
    workflow: {
      getHandle: (id: string) => ({
        describe: async () => {
          describes.set(id, (describes.get(id) ?? 0) + 1);
          const e = executions[id];
          if (!e) throw new WorkflowNotFoundError('not found', id, undefined);
          return {
            type: e.type,
            taskQueue: e.taskQueue,
            runId: e.runId ?? 'run-1',
            status: { name: e.status ?? 'RUNNING' },
            memo: e.memo,
            startTime: new Date(1),
          };
        },
      }),
    },
    workflowService: { describeTaskQueue: async () => ({ pollers: [] }) },
  } as unknown as Client;
  return { client, describes };
}

/** A cache whose documents are dropped at once (no close watchers): every `get` reads the head again. */
function cacheOn(client: Client): CatalogCache {
  const closed = new AbortController();
  closed.abort();
  return new CatalogCache(client, 2_000, closed.signal);
}

const served = (catalog: string, buildId: string, names: string[], version = V1): Record<string, Execution> => ({
  [`$catalog:${catalog}`]: { type: '$catalog', taskQueue: catalog, memo: { catalog: head(catalog, buildId, version) } },
  [`$catalog:${catalog}@${buildId}`]: { type: '$catalogVersion', taskQueue: 'skein-records', memo: { catalog: record(catalog, buildId, names, version) } },
  [`$lease:${catalog}@${buildId}`]: { type: '$lease', taskQueue: 'skein-records' },
});

const names = async (cache: CatalogCache, catalog: string) => (await cache.get(catalog)).workflows.map((w) => w.name);

describe('CatalogCache: the workflows of a head', () => {
  it("come from the build's record, read once per catalog and version however often the head is read again", async () => {
    const executions = served('main', 'b1', ['echo']);
    const { client, describes } = scriptedEngine(executions);
    const cache = cacheOn(client);
    expect(await names(cache, 'main')).toEqual(['echo']);
    // A restart publishes a new head of the same version (another run), and a step edit another build of it.
    executions['$catalog:main'] = { ...executions['$catalog:main']!, runId: 'run-2' };
    expect(await names(cache, 'main')).toEqual(['echo']);
    Object.assign(executions, served('main', 'b2', ['echo']));
    const doc = await cache.get('main');
    expect(doc.deployment).toEqual({ name: 'main', buildId: 'b2' });
    expect(describes.get('$catalog:main')).toBe(3);
    expect(describes.get('$catalog:main@b1')).toBe(1);
    expect(describes.get('$catalog:main@b2')).toBeUndefined();
    // Another version is read from its own record.
    Object.assign(executions, served('main', 'b3', ['echo', 'other'], '3'.repeat(64)));
    expect(await names(cache, 'main')).toEqual(['echo', 'other']);
    expect(describes.get('$catalog:main@b3')).toBe(1);
  });

  it(`are kept for the last ${SERVED_VERSIONS_KEPT} versions: an older one is read from its record again`, async () => {
    const executions: Record<string, Execution> = {};
    const { client, describes } = scriptedEngine(executions);
    const cache = cacheOn(client);
    const version = (i: number) => String(i).padStart(64, '0');
    for (let i = 0; i <= SERVED_VERSIONS_KEPT; i++) {
      Object.assign(executions, served('main', `b${i}`, [`wf${i}`], version(i)));
      expect(await names(cache, 'main')).toEqual([`wf${i}`]);
    }
    // The newest are still kept; the first was dropped and is read again.
    Object.assign(executions, served('main', `b${SERVED_VERSIONS_KEPT}`, [`wf${SERVED_VERSIONS_KEPT}`], version(SERVED_VERSIONS_KEPT)));
    await names(cache, 'main');
    expect(describes.get(`$catalog:main@b${SERVED_VERSIONS_KEPT}`)).toBe(1);
    Object.assign(executions, served('main', 'b0', ['wf0'], version(0)));
    expect(await names(cache, 'main')).toEqual(['wf0']);
    expect(describes.get('$catalog:main@b0')).toBe(2);
  });

  it('are never taken from another catalog with the same version', async () => {
    const { client, describes } = scriptedEngine({ ...served('main', 'b1', ['echo']), ...served('forged', 'b9', ['echo', 'injected']) });
    const cache = cacheOn(client);
    expect(await names(cache, 'forged')).toEqual(['echo', 'injected']);
    expect(await names(cache, 'main')).toEqual(['echo']);
    expect(describes.get('$catalog:main@b1')).toBe(1);
  });

  it('only from a running record of the records type on skein-records naming the same catalog, build and version; else the catalog is not available, and a later good record is read', async () => {
    const forgeries: Array<Partial<Execution> & { doc?: object }> = [
      { status: 'TERMINATED' },
      { type: 'squatter' },
      { taskQueue: 'main' },
      { doc: record('other', 'b1', ['echo']) },
      { doc: record('main', 'b2', ['echo']) },
      { doc: record('main', 'b1', ['echo'], '2'.repeat(64)) },
      { doc: { ...head('main', 'b1'), workflows: 'not a list' } },
    ];
    for (const { doc, ...forged } of forgeries) {
      const executions = served('main', 'b1', ['echo']);
      const real = executions['$catalog:main@b1']!;
      executions['$catalog:main@b1'] = { ...real, ...forged, ...(doc ? { memo: { catalog: doc } } : {}) };
      const { client } = scriptedEngine(executions);
      const cache = cacheOn(client);
      const refused = await cache.get('main').catch((err: unknown) => err);
      expect(refused, JSON.stringify(forged) + JSON.stringify(doc ?? {})).toBeInstanceOf(ApiError);
      expect((refused as ApiError).type).toBe('CatalogNotAvailableError');
      // A refusal is not kept: once the build's own record is there, the next request serves it.
      executions['$catalog:main@b1'] = real;
      expect(await names(cache, 'main')).toEqual(['echo']);
    }
  });

  it('a head without a build or version serves nothing; a whole document (a worker of an earlier release) is served as it is', async () => {
    const executions = served('main', 'b1', ['echo']);
    executions['$catalog:main'] = { type: '$catalog', taskQueue: 'main', memo: { catalog: { catalog: 'main', version: V1 } } };
    const { client } = scriptedEngine(executions);
    await expect(cacheOn(client).get('main')).rejects.toMatchObject({ type: 'CatalogNotAvailableError' });
    executions['$catalog:main'] = { type: '$catalog', taskQueue: 'main', memo: { catalog: record('main', 'b1', ['whole']) } };
    expect(await names(cacheOn(client), 'main')).toEqual(['whole']);
  });
});
