/**
 * `skein dev`'s watcher (chokidar on a real folder): which changes reach a reload. Documentation, tests, type
 * declarations and source maps never do; code, package.json and data files do, batched into one call.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isServedInput, watchProject, type ProjectWatcher } from '../src/dev/watch.js';

describe('isServedInput', () => {
  it.each([
    ['src/flows/greet/steps.ts', true],
    ['dist/flows/greet/workflow.js', true],
    ['package.json', true],
    ['src/prompts/greet.prompt', true],
    ['README.md', false],
    ['docs/guide.MD', false],
    ['dist/flows/greet/steps.js.map', false],
    ['dist/flows/greet/steps.d.ts', false],
    ['src/flows/greet/steps.test.ts', false],
    ['test/greet.spec.js', false],
    ['src/__tests__/greet.ts', false],
    ['src/flows/greet/steps.ts~', false],
  ])('%s: %s', (file, served) => {
    expect(isServedInput(path.join('/project', file))).toBe(served);
  });
});

describe('watchProject', () => {
  let root: string;
  let watcher: ProjectWatcher | undefined;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'skein-watch-'));
    mkdirSync(path.join(root, 'greet'));
    mkdirSync(path.join(root, 'test'));
  });
  afterEach(async () => {
    await watcher?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reloads for code, not for documentation or tests written in the same moment', async () => {
    const batches: string[][] = [];
    watcher = watchProject([root], (files) => batches.push(files.map((f) => path.relative(root, f)).sort()), { debounceMs: 100 });
    // chokidar reports changes only once its first scan is done.
    await watcher.ready;
    writeFileSync(path.join(root, 'README.md'), '# notes\n');
    writeFileSync(path.join(root, 'test', 'greet.test.ts'), 'it("greets", () => {});\n');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(batches).toEqual([]);
    writeFileSync(path.join(root, 'greet', 'steps.js'), 'export const a = 1;\n');
    writeFileSync(path.join(root, 'README.md'), '# more notes\n');
    await expect.poll(() => batches, { timeout: 5000 }).toEqual([['greet/steps.js']]);
  });
});
