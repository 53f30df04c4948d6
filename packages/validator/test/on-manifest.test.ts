import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import path from 'node:path';
import type { Manifest } from '@skein/discovery';
import { afterAll, describe, expect, it } from 'vitest';
import { validateWithCache } from '../src/cached.js';
import { validate } from '../src/index.js';
import { FIXTURES } from './helpers.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe('validate({ onManifest })', () => {
  it('tells the discovered manifest once, the one the report holds, with or without findings', async () => {
    for (const project of [path.resolve(import.meta.dirname, '../../../examples'), path.join(FIXTURES, 'versioning/incompatible-change/invalid')]) {
      const told: Manifest[] = [];
      const report = await validate(project, { onManifest: (m) => told.push(m) });
      expect(told).toHaveLength(1);
      expect(told[0]).toBe(report.manifest);
      expect(told[0]!.workflows.length).toBeGreaterThan(0);
    }
  });

  it('is told by an analysis through the cache, not by a report the cache stored', async () => {
    const project = path.resolve(import.meta.dirname, '../../../examples');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skein-on-manifest-'));
    temps.push(dir);
    const cache = { file: path.join(dir, 'validate.json') };
    const cold: Manifest[] = [];
    const first = await validateWithCache(project, { cache, onManifest: (m) => cold.push(m) });
    expect(cold).toEqual([first.manifest]);
    const warm: Manifest[] = [];
    const paths: string[] = [];
    const second = await validateWithCache(project, { cache, onManifest: (m) => warm.push(m) }, (p) => paths.push(p));
    expect(paths).toEqual(['stored']);
    expect(warm).toEqual([]);
    // The option stays out of the cache key: the second run, told through another function, read the stored report.
    expect(second).toEqual(first);
  });
});
