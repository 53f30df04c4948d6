import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSkein } from '../support/processes.js';
import { repoRoot } from '../support/stack.js';

/**
 * TypeScript Node cannot run by stripping types (an enum in a steps file): `skein worker` refuses to start with
 * one line naming file, line and column and what to do, before contacting the engine.
 */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-ts-enum-'));
  await mkdir(path.join(dir, 'src', 'paint'), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'ts-enum', private: true, type: 'module' }));
  await writeFile(
    path.join(dir, 'src', 'paint', 'workflow.ts'),
    `import { workflow } from '@skein/core';\nimport { mix } from './steps.js';\n\nexport default workflow({ name: 'paint', fn: async (): Promise<string> => mix() });\n`,
  );
  await writeFile(
    path.join(dir, 'src', 'paint', 'steps.ts'),
    `import { step } from '@skein/core';\n\nexport enum Shade { Light, Dark }\n\nexport const mix = step({ name: 'mix', fn: async (): Promise<string> => Shade[Shade.Dark] });\n`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('skein worker on TypeScript with an enum', () => {
  it('exits 1 naming steps.ts:3:8 and the fix, without a stack trace or contacting the engine', async () => {
    const run = spawnSkein(['worker', dir], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(await run.exited).toBe(1);
    const stderr = run.stderr();
    expect(stderr).toContain(`${path.join(dir, 'src', 'paint', 'steps.ts')}:3:8: TypeScript enum is not supported in strip-only mode`);
    expect(stderr).toContain('"erasableSyntaxOnly": true');
    expect(stderr).not.toContain('Cannot reach Temporal');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
