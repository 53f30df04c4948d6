import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packPublished, publishedWorkspaces, type PackedPackage } from '../support/packed.js';
import { repoRoot } from '../support/stack.js';

// What `npm publish` would ship, for every package under packages/ (run `npm run build` first): every package is
// packed once, by one `npm pack`, and each check reads that tarball or its file list.
const bin = (name: string) => path.join(repoRoot, 'node_modules', '.bin', name);
const rootLicense = readFileSync(path.join(repoRoot, 'LICENSE'), 'utf8');
const packDir = mkdtempSync(path.join(tmpdir(), 'skein-publish-'));
afterAll(() => rmSync(packDir, { recursive: true, force: true }));
const packs = new Map(packPublished(packDir).map((p) => [p.name, p]));
const workspaces = publishedWorkspaces().map((w) => {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, w, 'package.json'), 'utf8'));
  return { dir: path.join(repoRoot, w), pkg, packed: packs.get(pkg.name) as PackedPackage };
});

describe.each(workspaces)('$pkg.name as published', ({ dir, pkg, packed }) => {
  it('ships README and the MIT LICENSE, and no build leftovers, sources, tests or declaration maps', () => {
    const files = packed.files;
    expect(files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense);
    expect(files.filter((f) => /\.tsbuildinfo$|\.d\.ts\.map$|^src\/|^test\//.test(f))).toEqual([]);
    // A source map is shipped only with the sources it maps inside it.
    for (const map of files.filter((f) => f.endsWith('.js.map'))) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(path.join(dir, map), 'utf8'));
      expect(sourcesContent?.length, map).toBe(sources.length);
    }
  });

  it('says where it comes from, under which licence, on which Node versions', () => {
    expect(pkg).toMatchObject({
      license: 'MIT',
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/.+\.git$/), directory: path.relative(repoRoot, dir) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\/.+\/issues$/) },
      keywords: expect.arrayContaining(['skein']),
      engines: { node: expect.stringContaining('>=24.15.0') },
    });
    expect(pkg.description).toBeTruthy();
  });

  it('pins @temporalio/* to one exact version and its sibling @skein packages to the workspace version', () => {
    const deps = { ...pkg.dependencies, ...pkg.peerDependencies };
    const rootLock = JSON.parse(readFileSync(path.join(repoRoot, 'packages/core/package.json'), 'utf8'));
    for (const [name, spec] of Object.entries(deps) as Array<[string, string]>) {
      if (name.startsWith('@temporalio/')) expect(spec, name).toBe(rootLock.dependencies['@temporalio/common']);
      const sibling = workspaces.find((w) => w.pkg.name === name);
      if (sibling) expect(spec, name).toBe(sibling.pkg.version);
    }
  });

  it('types its version nowhere in its sources (read from package.json instead)', () => {
    const sources = readdirSync(path.join(dir, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.includes('generated'));
    const literal = new RegExp(`['"\`]${pkg.version.replaceAll('.', '\\.')}['"\`]`);
    expect(sources.filter((f) => literal.test(readFileSync(path.join(dir, 'src', f), 'utf8')))).toEqual([]);
  });

  it('passes publint --strict and, when it exports modules, attw --profile esm-only (a command-only package has a bin and nothing to import)', () => {
    const publint = spawnSync(bin('publint'), ['--strict', dir], { encoding: 'utf8' });
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toContain('All good!');
    if (pkg.exports === undefined) {
      expect(pkg.bin, 'a package without exports is a command').toBeTruthy();
      expect(pkg.main).toBeUndefined();
      return;
    }
    const attw = spawnSync(bin('attw'), [packed.tarball, '--profile', 'esm-only', '--format', 'ascii'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
  }, 60_000);
});

it('every package under packages/ is published with a CHANGELOG and a changeset configuration at the root', () => {
  for (const { dir, pkg } of workspaces) expect(readdirSync(dir), pkg.name).toContain('CHANGELOG.md');
  const config = JSON.parse(readFileSync(path.join(repoRoot, '.changeset', 'config.json'), 'utf8'));
  expect(config.fixed).toEqual([workspaces.map((w) => w.pkg.name).sort()]);
});
