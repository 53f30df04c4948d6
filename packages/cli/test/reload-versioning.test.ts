/**
 * `skein dev`'s versioning note after a reload (reload-versioning.ts), on the versioning corpus's v1/v2 pairs: an
 * edit that inserts a command before a wait breaks runs started before it, pinned or not (every reload is one
 * build); a command added after the last wait does not.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReloadVersioning } from '../src/dev/reload-versioning.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A copy of a corpus case's v1 (the code a dev loop serves), and how to save its v2 over it. */
function servedCopy(name: string): { dir: string; saveV2(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-reload-versioning-'));
  dirs.push(dir);
  const corpus = path.join(repo, 'fixtures/versioning', name);
  cpSync(path.join(corpus, 'v1'), dir, { recursive: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  return { dir, saveV2: () => cpSync(path.join(corpus, 'v2', 'src'), path.join(dir, 'src'), { recursive: true }) };
}

describe('ReloadVersioning', () => {
  it('names a step inserted before a timer of a pinned workflow, where and what runs recorded, and the fix; once', async () => {
    const project = servedCopy('pinned-step-inserted-before-timer');
    const versioning = new ReloadVersioning(project.dir);
    project.saveV2();
    const lines = await versioning.afterReload();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^workflow "pinnedStepInsertedBeforeTimer": this edit issues activity "pinnedStepInsertedBeforeTimer#reserveStock" at src\/pinnedStepInsertedBeforeTimer\/workflow\.ts:20:\d+ where runs started before it recorded a timer; those runs fail at their next workflow task \(a nondeterminism error\)\. Guard the change with patched\('pinnedStepInsertedBeforeTimer-change'\), or let them finish first\.$/,
    );
    // The edited code is what is served now: the next reload without a change says nothing.
    expect(await versioning.afterReload()).toEqual([]);
  });

  it('says nothing of a step added after the last wait', async () => {
    const project = servedCopy('step-inserted-after-last-wait');
    const versioning = new ReloadVersioning(project.dir);
    project.saveV2();
    expect(await versioning.afterReload()).toEqual([]);
  });
});
