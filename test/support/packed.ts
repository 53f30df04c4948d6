/**
 * The workspace's packages as users get them: `npm pack` tarballs, installed into folders outside the
 * repository. The @skein packages are not on a registry while they are developed, so a test project depends on
 * the tarballs through `file:` specs and `overrides` (which also catch the packages' dependencies on each other).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './stack.js';

/** The workspace folders that are published (everything under `packages/`). */
export function publishedWorkspaces(): string[] {
  const root = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
  return root.workspaces.filter((w) => w.startsWith('packages/'));
}

/** One packed workspace package: its name, its tarball (absolute path) and the paths of the files it ships. */
export interface PackedPackage {
  name: string;
  tarball: string;
  files: string[];
}

/**
 * Packs every published workspace package into `dest` with one `npm pack` (the build must be current: `npm run
 * build`).
 */
export function packPublished(dest: string): PackedPackage[] {
  const args = ['pack', '--json', '--pack-destination', dest, ...publishedWorkspaces().flatMap((w) => ['-w', w])];
  const out = execFileSync('npm', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const packs = JSON.parse(out) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
  return packs.map((p) => ({ name: p.name, tarball: path.join(dest, p.filename), files: p.files.map((f) => f.path) }));
}

/**
 * Packs every published workspace package into `dest` (see `packPublished`).
 * @returns package name → absolute path of its tarball.
 */
export function packWorkspace(dest: string): Record<string, string> {
  return Object.fromEntries(packPublished(dest).map((p) => [p.name, p.tarball]));
}

/**
 * Points a scaffolded package.json at the tarballs: each dependency on a packed package becomes a `file:` spec,
 * and `overrides` send every other reference to one (`@skein/cli` → `@skein/worker` → `@skein/core`) there too.
 */
export function useTarballs(projectDir: string, tarballs: Record<string, string>): void {
  const file = path.join(projectDir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | unknown>;
  const specs = Object.fromEntries(Object.entries(tarballs).map(([name, tgz]) => [name, `file:${tgz}`]));
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const deps = pkg[field] as Record<string, string> | undefined;
    for (const name of Object.keys(deps ?? {})) if (specs[name]) deps![name] = specs[name]!;
  }
  pkg.overrides = specs;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
