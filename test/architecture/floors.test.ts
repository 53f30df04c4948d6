import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/stack.js';

// The import rules of `npm run check:imports` (.dependency-cruiser.cjs), run on a small workspace of probe
// packages laid out as the repository's are (packages/<name>/src, linked under node_modules/@skein), so a probe
// never touches the repository's own sources.
const work = mkdtempSync(path.join(tmpdir(), 'skein-floors-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function writeFiles(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    writeFileSync(path.join(work, file), text);
  }
}

/** A workspace package `@skein/<name>` whose source entry is `src/index.ts` exporting `value`. */
function probePackage(name: string): void {
  writeFiles({
    [`packages/${name}/package.json`]: JSON.stringify({ name: `@skein/${name}`, type: 'module', exports: { '.': { '@skein/source': './src/index.ts' } } }),
    [`packages/${name}/src/index.ts`]: `export const value = '${name}';\n`,
  });
  mkdirSync(path.join(work, 'node_modules/@skein'), { recursive: true });
  symlinkSync(path.join(work, 'packages', name), path.join(work, 'node_modules/@skein', name));
}

for (const name of ['names', 'core', 'worker', 'discovery', 'validator', 'api']) probePackage(name);
writeFiles({ 'tsconfig.base.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }) });

/** Runs the repository's import rules over the given source folders of the probe workspace. */
function checkImports(...dirs: string[]): { status: number | null; output: string } {
  const run = spawnSync(
    path.join(repoRoot, 'node_modules/.bin/depcruise'),
    [...dirs, '--config', path.join(repoRoot, '.dependency-cruiser.cjs'), '--output-type', 'err'],
    {
      cwd: work,
      encoding: 'utf8',
    },
  );
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('package floors', () => {
  it('an import from a lower floor to a higher one fails, type-only imports included', () => {
    writeFiles({ 'packages/core/src/probe.ts': "import type { value } from '@skein/worker';\nexport type Probe = typeof value;\n" });
    const up = checkImports('packages/core/src', 'packages/worker/src');
    expect(up.status, up.output).not.toBe(0);
    expect(up.output).toContain('floor-core: packages/core/src/probe.ts → packages/worker/src/index.ts');
    rmSync(path.join(work, 'packages/core/src/probe.ts'));
  });

  it('an import of a package the floors do not list fails as well (the analysis never imports the authoring API)', () => {
    writeFiles({ 'packages/discovery/src/probe.ts': "export { value } from '@skein/core';\n" });
    const sideways = checkImports('packages/discovery/src', 'packages/core/src');
    expect(sideways.status, sideways.output).not.toBe(0);
    expect(sideways.output).toContain('floor-discovery: packages/discovery/src/probe.ts → packages/core/src/index.ts');
    rmSync(path.join(work, 'packages/discovery/src/probe.ts'));
  });

  it('imports down the floors pass', () => {
    writeFiles({
      'packages/worker/src/probe.ts': "export { value as core } from '@skein/core';\nexport { value as validator } from '@skein/validator';\n",
      'packages/validator/src/probe.ts': "export { value } from '@skein/discovery';\n",
      'packages/core/src/probe.ts': "export { value } from '@skein/names';\n",
    });
    const down = checkImports('packages/worker/src', 'packages/validator/src', 'packages/core/src');
    expect(down.output).toContain('no dependency violations found');
    expect(down.status, down.output).toBe(0);
  });

  it("nothing in a job folder of the worker imports the worker's root back", () => {
    writeFiles({
      'packages/worker/src/worker.ts': "import { hosted } from './host/probe.js';\nexport const startWorker = hosted;\n",
      'packages/worker/src/host/probe.ts': "export const hosted = 1;\nexport { value } from '../index.js';\n",
    });
    const back = checkImports('packages/worker/src');
    expect(back.status, back.output).not.toBe(0);
    expect(back.output).toContain('worker-root-on-top: packages/worker/src/host/probe.ts → packages/worker/src/index.ts');
    expect(back.output).not.toContain('worker-root-on-top: packages/worker/src/worker.ts');
    rmSync(path.join(work, 'packages/worker/src/host'), { recursive: true });
    rmSync(path.join(work, 'packages/worker/src/worker.ts'));
  });

  it('a route module of the API never imports another', () => {
    writeFiles({
      'packages/api/src/routes/start.ts': 'export const startRoutes = [];\n',
      'packages/api/src/routes/run.ts': "import { startRoutes } from './start.js';\nexport const runRoutes = [...startRoutes];\n",
      'packages/api/src/routes/index.ts': "export { runRoutes } from './run.js';\nexport { startRoutes } from './start.js';\n",
    });
    const routes = checkImports('packages/api/src');
    expect(routes.status, routes.output).not.toBe(0);
    expect(routes.output).toContain('api-routes-independent: packages/api/src/routes/run.ts → packages/api/src/routes/start.ts');
    expect(routes.output).not.toContain('routes/index.ts →');
  });
});
