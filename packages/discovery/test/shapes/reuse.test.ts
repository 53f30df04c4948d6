import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession, deriveCommandShapes, discover, prepareForShapes, shapesOf, type ShapeSet } from '../../src/index.js';
import { project, render } from './project.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const files = {
  'w/steps.ts':
    "import { step } from '@skein/core';\nexport const a = step({ name: 'a', fn: async () => 1 });\nexport const b = step({ name: 'b', fn: async () => 2 });\n",
  'w/workflow.ts':
    "import { workflow } from '@skein/core';\nimport { run } from '../lib/run.js';\nexport default workflow({ name: 'w', fn: async () => { await run(); } });\n",
  'v/workflow.ts': "import { workflow, sleep } from '@skein/core';\nexport default workflow({ name: 'v', fn: async () => { await sleep(1); } });\n",
  'lib/run.ts': "import { a } from '../w/steps.js';\nexport async function run() { await a(); }\n",
};

async function againstBaseline(dir: string, baseline: ShapeSet): Promise<ShapeSet> {
  const session = createSession();
  prepareForShapes(session, dir, baseline);
  const manifest = await discover(dir, { session });
  return shapesOf(session, manifest, baseline);
}

describe('shapes against a baseline: unchanged sources are not walked again', () => {
  it('records the sources of each shape with their content hashes', async () => {
    const dir = project(files);
    dirs.push(dir);
    const set = await deriveCommandShapes(dir);
    expect(Object.keys(set.workflows.w!.sources).sort()).toEqual(['lib/run.ts', 'w/steps.ts', 'w/workflow.ts']);
    expect(Object.keys(set.workflows.v!.sources)).toEqual(['v/workflow.ts']);
    expect(set.workflows.w!.sources['lib/run.ts']).toMatch(/^[\w-]{27}$/);
  });

  it('takes the recorded shape while every source is unchanged, and walks a workflow again when a helper it follows changed', async () => {
    const dir = project(files);
    dirs.push(dir);
    const baseline = await deriveCommandShapes(dir);
    const same = await againstBaseline(dir, baseline);
    expect(same.workflows.w).toBe(baseline.workflows.w);
    expect(same.workflows.v).toBe(baseline.workflows.v);
    writeFileSync(join(dir, 'lib/run.ts'), "import { a, b } from '../w/steps.js';\nexport async function run() { await a(); await b(); }\n");
    const next = await againstBaseline(dir, baseline);
    expect(next.workflows.v).toBe(baseline.workflows.v);
    expect(next.workflows.w).not.toBe(baseline.workflows.w);
    expect(render(next.workflows.w!.shape)).toBe('call(a(w#a) W a(w#b) W) W');
  });

  it('walks a workflow again when the factory that made one of its steps changed (the factory’s files are its sources)', async () => {
    const dir = project({
      'lib/make.ts': "import { step } from '@skein/core';\nexport const make = (n: string) => step({ name: n, fn: async () => 1 });\n",
      'lib/index.ts': "export { make } from './make.js';\n",
      'f/steps.ts': "import { make } from '../lib/index.js';\nexport const s = make('s');\n",
      'f/workflow.ts':
        "import { workflow } from '@skein/core';\nimport { s } from './steps.js';\nexport default workflow({ name: 'f', fn: async () => { await s(); } });\n",
    });
    dirs.push(dir);
    const baseline = await deriveCommandShapes(dir);
    expect(Object.keys(baseline.workflows.f!.sources).sort()).toEqual(['f/steps.ts', 'f/workflow.ts', 'lib/index.ts', 'lib/make.ts']);
    expect(render(baseline.workflows.f!.shape)).toBe('a(f#s) W');
    // The factory now names its step by another parameter: the same call makes the step `t`.
    writeFileSync(
      join(dir, 'lib/make.ts'),
      "import { step } from '@skein/core';\nexport const make = (_n: string, m = 't') => step({ name: m, fn: async () => 1 });\n",
    );
    const next = await againstBaseline(dir, baseline);
    expect(next.workflows.f).not.toBe(baseline.workflows.f);
  });
});
