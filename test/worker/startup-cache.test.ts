import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/stack.js';

let dir: string;
let scripts: string;

async function write(rel: string, text: string) {
  await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await writeFile(path.join(dir, rel), text);
}

/**
 * Validates and loads the project in a fresh Node process (the compiled worker, as `skein worker` runs it: Node's
 * own module loader, whose module graph the facts cache records), runs `other#tag` once.
 */
async function start(): Promise<{ counts: { imported: number; cached: number }; description: string | null; tagged: unknown }> {
  const dist = (rel: string) => JSON.stringify(path.join(repoRoot, 'packages/worker/dist', rel));
  const script = `
    import { pino } from ${JSON.stringify(path.join(repoRoot, 'node_modules/pino/pino.js'))};
    import { checkProject } from ${dist('check/validate.js')};
    import { loadProject } from ${dist('host/load.js')};
    import { openStartupCaches } from ${dist('cache/startup-caches.js')};
    import { ActivityResolver, buildActivities } from ${dist('host/activities.js')};
    const dir = ${JSON.stringify(dir)};
    const caches = openStartupCaches(dir + '/.skein/startup');
    const { manifest } = await checkProject(dir, pino({ level: 'silent' }), caches);
    const project = await loadProject(manifest, caches);
    await caches.digests.save();
    const tagged = await buildActivities(new ActivityResolver(project))['other#tag']('x');
    console.log(JSON.stringify({ counts: project.counts, description: project.workflows.find((w) => w.entry.name === 'other').facts.description, tagged }));
  `;
  const file = path.join(scripts, 'start.mjs');
  await writeFile(file, script);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: repoRoot });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof start>>;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skein-facts-cache-'));
  scripts = await mkdtemp(path.join(tmpdir(), 'skein-facts-cache-script-'));
  await mkdir(path.join(dir, 'node_modules', '@skein'), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules', '@skein', 'core'), path.join(dir, 'node_modules', '@skein', 'core'));
  await write('package.json', JSON.stringify({ name: 'facts-cache-probe', version: '1.0.0', type: 'module', private: true }));
  await write(
    'greet/workflow.js',
    `import { workflow } from '@skein/core';\nimport { shout } from './steps.js';\nexport default workflow({ name: 'greet', fn: async (input) => shout(input.name) });\n`,
  );
  await write('greet/steps.js', `import { step } from '@skein/core';\nexport const shout = step({ name: 'shout', fn: async (text) => text.toUpperCase() });\n`);
  await write(
    'other/workflow.js',
    `import { workflow } from '@skein/core';\nimport { label } from './shared/label.js';\nimport { tag } from './steps.js';\nexport default workflow({ name: 'other', description: label, fn: async (input) => tag(input) });\n`,
  );
  await write('other/shared/label.js', `import { suffix } from './suffix.js';\nexport const label = 'label ' + suffix;\n`);
  await write('other/shared/suffix.js', `export const suffix = 'one';\n`);
  await write('other/steps.js', `import { step } from '@skein/core';\nexport const tag = step({ name: 'tag', fn: async (x) => ({ tagged: x, v: 1 }) });\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(scripts, { recursive: true, force: true });
});

describe('project facts cache across worker processes', () => {
  it('reuses facts of unchanged workflows, re-imports what an edit reached through imports, and always runs the edited step', async () => {
    expect((await start()).counts).toEqual({ imported: 2, cached: 0 });
    const warm = await start();
    expect(warm.counts).toEqual({ imported: 0, cached: 2 });
    expect(warm.description).toBe('label one');
    expect(warm.tagged).toEqual({ tagged: 'x', v: 1 });

    // Two imports away from the workflow module: its facts (the description) are computed again.
    await write('other/shared/suffix.js', `export const suffix = 'two';\n`);
    const edited = await start();
    expect(edited.counts).toEqual({ imported: 1, cached: 1 });
    expect(edited.description).toBe('label two');

    // A step's body: the workflow's facts are read again and the new code is what runs.
    await write('other/steps.js', `import { step } from '@skein/core';\nexport const tag = step({ name: 'tag', fn: async (x) => ({ tagged: x, v: 2 }) });\n`);
    const stepEdited = await start();
    expect(stepEdited.counts).toEqual({ imported: 1, cached: 1 });
    expect(stepEdited.tagged).toEqual({ tagged: 'x', v: 2 });
    expect((await start()).counts).toEqual({ imported: 0, cached: 2 });
  }, 120_000);
});
