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

/** A copy of a corpus case's v1 (the code a dev loop serves), and how to save its v2 over it (or v1 again). */
function servedCopy(name: string): { dir: string; saveV2(): void; saveV1(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'skein-reload-versioning-'));
  dirs.push(dir);
  const corpus = path.join(repo, 'fixtures/versioning', name);
  cpSync(path.join(corpus, 'v1'), dir, { recursive: true });
  symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    dir,
    saveV2: () => cpSync(path.join(corpus, 'v2', 'src'), path.join(dir, 'src'), { recursive: true }),
    saveV1: () => cpSync(path.join(corpus, 'v1', 'src'), path.join(dir, 'src'), { recursive: true }),
  };
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

  describe('with the open runs read from the engine', () => {
    const workflow = 'pinnedStepInsertedBeforeTimer';

    it('says nothing of a breaking edit when the workflow has no open run, or only runs with no task completed yet', async () => {
      const project = servedCopy('pinned-step-inserted-before-timer');
      const versioning = new ReloadVersioning(project.dir, async () => [{ workflowType: workflow, lastTaskCompletedAt: null }]);
      project.saveV2();
      expect(await versioning.afterReload(2_000)).toEqual([]);
    });

    it('judges an edit against the code each open run last ran on, not against the reload before it', async () => {
      const project = servedCopy('pinned-step-inserted-before-timer');
      // One run, waiting at its timer since its last workflow task completed at t=1000 on the first code.
      const runs = [{ workflowType: workflow, lastTaskCompletedAt: 1_000 }];
      const versioning = new ReloadVersioning(project.dir, async () => runs);
      project.saveV2();
      const lines = await versioning.afterReload(2_000);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('where its open run recorded a timer; that run fails at its next workflow task');
      expect(lines[0]).toMatch(/or let it finish first\.$/);
      // Back to the code the run recorded (as a patched() guard or a rename undone does): the waiting run replays
      // it, though the reload before served something else.
      project.saveV1();
      expect(await versioning.afterReload(3_000)).toEqual([]);
      // A second run, whose last task completed on that third code (t=3500), and the first edit made again.
      runs.push({ workflowType: workflow, lastTaskCompletedAt: 3_500 });
      project.saveV2();
      expect(await versioning.afterReload(4_000)).toHaveLength(1);
    });

    it('counts the runs, and compares with the code served until now when the engine cannot be read', async () => {
      const project = servedCopy('pinned-step-inserted-before-timer');
      const counted = new ReloadVersioning(project.dir, async () => [
        { workflowType: workflow, lastTaskCompletedAt: 1_000 },
        { workflowType: workflow, lastTaskCompletedAt: 1_500 },
        { workflowType: 'another', lastTaskCompletedAt: 1_500 },
      ]);
      project.saveV2();
      const [line] = await counted.afterReload(2_000);
      expect(line).toContain('where its 2 open runs recorded a timer; those runs fail at their next workflow task');

      const other = servedCopy('pinned-step-inserted-before-timer');
      const unreadable = new ReloadVersioning(other.dir, () => Promise.reject(new Error('engine away')));
      other.saveV2();
      const [fallback] = await unreadable.afterReload(2_000);
      expect(fallback).toContain('where runs started before it recorded a timer; those runs fail at their next workflow task');
    });

    it('names a workflow the new code no longer has while runs of it are open', async () => {
      const project = servedCopy('step-inserted-after-last-wait');
      const versioning = new ReloadVersioning(project.dir, async () => [
        { workflowType: 'removedFlow', lastTaskCompletedAt: 1_000 },
        { workflowType: 'removedFlow', lastTaskCompletedAt: null },
      ]);
      project.saveV2();
      expect(await versioning.afterReload(2_000)).toEqual([
        'workflow "removedFlow": the code no longer has it (deleted or renamed?), and its 2 open runs wait at the next workflow task until it comes back; restore it, or terminate those runs (skein workflow terminate <id>).',
      ]);
    });
  });
});
