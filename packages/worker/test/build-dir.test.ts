import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insideProjectCode } from '../src/deploy/build/build-dir.js';
import { looksLikeBuild } from '../src/deploy/build/build-files.js';
import { loadProject, projectFacts, restoreProject } from '../src/host/load.js';
import { WorkerStartupError } from '../src/check/errors.js';
import { examplesManifest } from './manifest-helpers.js';

describe('insideProjectCode', () => {
  const roots = ['/app', '/app/node_modules/@acme/flows'];
  it.each([
    ['/app', true],
    ['/app/build', true],
    ['/app/src/out', true],
    ['/app/.skein/build', false],
    ['/app/node_modules/.cache/build', false],
    ['/app/node_modules/@acme/flows/dist-build', true],
    ['/srv/build', false],
    ['/application/build', false],
  ])('%s: %s', (dir, inside) => {
    expect(insideProjectCode(dir, roots)).toBe(inside);
  });
});

describe('projectFacts and restoreProject', () => {
  it('restore the loaded project from its facts without importing a module', async () => {
    const manifest = examplesManifest();
    const loaded = await loadProject(manifest);
    const facts = JSON.parse(JSON.stringify(projectFacts(loaded)));
    const restored = restoreProject(manifest, facts);
    expect(restored.counts).toEqual({ imported: 0, cached: manifest.workflows.length + manifest.sharedActivities.length });
    expect(restored.workflows.map((w) => [w.facts, w.binding])).toEqual(loaded.workflows.map((w) => [w.facts, w.binding]));
    expect([...restored.scoped.entries()].map(([k, v]) => [k, v.map((a) => a.facts)])).toEqual(
      [...loaded.scoped.entries()].map(([k, v]) => [k, v.map((a) => a.facts)]),
    );
    expect([...restored.activityFiles.keys()]).toEqual([...loaded.activityFiles.keys()]);
    // The definitions load on first use, from the same files.
    const first = manifest.workflows[0]!.activities[0]!;
    expect((await restored.definitions.of(first)).name).toBe(first.name);
  });

  it('refuses facts of another manifest', async () => {
    const manifest = examplesManifest();
    const facts = projectFacts(await loadProject(manifest));
    const other = { ...manifest, workflows: manifest.workflows.slice(1) };
    expect(() => restoreProject(other, facts)).toThrow(WorkerStartupError);
    expect(() => restoreProject(manifest, { ...facts, shared: [] })).toThrow('the stored definitions do not match the manifest');
  });
});

describe('looksLikeBuild', () => {
  it.each([
    [['skein-build.json'], true],
    [['workflow-bundle.js', 'manifest.json'], true],
    [['package.json', 'manifest.json', 'catalog.json'], false],
    [['package.json', 'skein-build.json'], true],
    [['notes.txt'], false],
  ])('%j: %s', async (files, expected) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-looks-'));
    try {
      for (const f of files) await writeFile(path.join(dir, f), '{}');
      expect(looksLikeBuild(dir)).toBe(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
