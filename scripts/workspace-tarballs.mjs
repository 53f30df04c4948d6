/**
 * The workspace's packages as users get them: `npm pack` tarballs of every package under `packages/`, and a
 * project's package.json pointed at them. The @skein packages are not on a registry while they are developed, so a
 * project made from a clone (`npm run init:local`) and the tests that play a user's first day install the tarballs
 * through `file:` specs and `overrides` (which also catch the packages' dependencies on one another). Tarballs
 * rather than links to the folders: what `npm publish` would ship (the `files` list, the build output).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @returns the workspace folders that are published (everything under `packages/`). */
export function publishedWorkspaces() {
  const root = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return root.workspaces.filter((w) => w.startsWith('packages/'));
}

/**
 * Packs every published workspace package into `dest` with one `npm pack` (the build must be current: `npm run build`).
 * @param {string} dest an existing folder
 * @returns {{ name: string, tarball: string, files: string[] }[]} each package's name, tarball (absolute path) and shipped files
 * @throws Error when `npm pack` fails
 */
export function packPublished(dest) {
  const args = ['pack', '--json', '--pack-destination', dest, ...publishedWorkspaces().flatMap((w) => ['-w', w])];
  const out = execFileSync('npm', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out).map((p) => ({ name: p.name, tarball: path.join(dest, p.filename), files: p.files.map((f) => f.path) }));
}

/**
 * Packs every published workspace package into `dest` (see `packPublished`).
 * @returns {Record<string, string>} package name → absolute path of its tarball
 */
export function packWorkspace(dest) {
  return Object.fromEntries(packPublished(dest).map((p) => [p.name, p.tarball]));
}

/**
 * Points a project's package.json at the tarballs: each dependency on a packed package becomes a `file:` spec (relative
 * to the project when the tarball lies inside it), and `overrides` send every other reference to one there too.
 * @param {string} projectDir the folder holding the package.json
 * @param {Record<string, string>} tarballs package name → absolute path of its tarball
 */
export function useTarballs(projectDir, tarballs) {
  const file = path.join(projectDir, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const spec = (tgz) => {
    const rel = path.relative(projectDir, tgz);
    return `file:${rel.startsWith('..') || path.isAbsolute(rel) ? tgz : `./${rel}`}`;
  };
  const specs = Object.fromEntries(Object.entries(tarballs).map(([name, tgz]) => [name, spec(tgz)]));
  for (const field of ['dependencies', 'devDependencies']) {
    const deps = pkg[field];
    for (const name of Object.keys(deps ?? {})) if (specs[name]) deps[name] = specs[name];
  }
  pkg.overrides = specs;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}
