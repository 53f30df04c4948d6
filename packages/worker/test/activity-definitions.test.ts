/**
 * `ActivityDefinitions.module`: a step module is imported once, on first use; an import that failed (a syntax
 * error, a module that throws while it loads) fails again without running the file until the file changes, then
 * the next call imports it anew, so a file fixed meanwhile loads.
 * (Where the message says it failed is Node's stack, checked in a Node process of its own: typescript-runtime.test.ts.)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActivityDefinitions } from '../src/host/load.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-activity-definitions-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ActivityDefinitions.module', () => {
  it('imports a module once, and shares the one import between calls', async () => {
    const file = path.join(dir, 'once.mjs');
    await writeFile(file, 'export const loaded = Symbol("once");\n');
    const definitions = new ActivityDefinitions();
    const [a, b] = await Promise.all([definitions.module(file), definitions.module(file)]);
    expect(a.loaded).toBe(b.loaded);
    await writeFile(file, 'export const loaded = "changed";\n');
    expect((await definitions.module(file)).loaded).toBe(a.loaded);
  });

  it.each([
    ['a syntax error', 'export const value = ;\n'],
    [
      'a module that throws while it loads',
      'globalThis.skeinLoads = (globalThis.skeinLoads ?? 0) + 1;\nconst config = {};\nexport const value = config.a.b;\n',
    ],
  ])('fails an import that failed (%s) again without running the file, until the file changes: then loads it', async (_what, broken) => {
    const file = path.join(dir, 'steps.mjs');
    await writeFile(file, broken);
    const loads = () => (globalThis as { skeinLoads?: number }).skeinLoads ?? 0;
    const definitions = new ActivityDefinitions();
    await expect(definitions.module(file)).rejects.toThrow(`Cannot load ${file}`);
    const ranOnce = loads();
    await expect(definitions.module(file)).rejects.toThrow(`Cannot load ${file}`);
    await expect(definitions.module(file)).rejects.toThrow(`Cannot load ${file}`);
    expect(loads()).toBe(ranOnce);
    await writeFile(file, 'export const value = 42;\n// fixed\n');
    expect((await definitions.module(file)).value).toBe(42);
  });
});
