/**
 * The workspace's packages as users get them (`npm pack` tarballs installed outside the repository): the one
 * mechanism is `scripts/workspace-tarballs.mjs`, which `npm run init:local` uses too; this gives it its types.
 */
import * as tarballs from '../../scripts/workspace-tarballs.mjs';

/** One packed workspace package: its name, its tarball (absolute path) and the paths of the files it ships. */
export interface PackedPackage {
  name: string;
  tarball: string;
  files: string[];
}

/** The workspace folders that are published (everything under `packages/`). */
export const publishedWorkspaces: () => string[] = tarballs.publishedWorkspaces;

/** Packs every published workspace package into `dest` with one `npm pack` (the build must be current: `npm run build`). */
export const packPublished: (dest: string) => PackedPackage[] = tarballs.packPublished;

/** Packs every published workspace package into `dest`; package name → absolute path of its tarball. */
export const packWorkspace: (dest: string) => Record<string, string> = tarballs.packWorkspace;

/**
 * Points a scaffolded package.json at the tarballs: each dependency on a packed package becomes a `file:` spec, and
 * `overrides` send every other reference to one there too.
 */
export const useTarballs: (projectDir: string, tarballs: Record<string, string>) => void = tarballs.useTarballs;
