/**
 * The packages a validation covers: the validated root and every exposed package discovery found, each
 * with its package.json and its file list (read through the confined file system).
 */
import * as path from 'node:path';
import { PACKAGE_JSON_KEY } from '@skein/core';
import type { Manifest } from '@skein/discovery';
import type { ValidatorFs } from '../fs/confined-fs.js';
import type { PackageInfo } from '../types.js';
import { publishedFiles } from './published-files.js';

/** True when a package.json sets `"skein": { "workflows": { "expose": true } }` (SPEC rule 4). */
export function isExposed(pkg: Record<string, unknown>): boolean {
  const ns = pkg[PACKAGE_JSON_KEY] as { workflows?: { expose?: unknown } } | undefined;
  return ns?.workflows?.expose === true;
}

/** A package plus the symlinks in it that lead outside every allowed root. */
export interface LoadedPackage {
  info: PackageInfo;
  escapes: { path: string; target: string }[];
}

/**
 * Folders of a project (not of a published package) that hold no workflow sources: build output.
 * Mirrors discovery, which does not look for a project's own workflows there either.
 */
const PROJECT_SKIPPED_DIRS: ReadonlySet<string> = new Set(['dist']);

/**
 * Loads one package: package.json (may be absent or malformed: then `{}`) and its files.
 * @param published true/false to force, null to decide from the expose flag (SPEC rule 4)
 */
export function loadPackage(fs: ValidatorFs, root: string, published: boolean | null): LoadedPackage {
  const packageJsonPath = path.join(root, 'package.json');
  const read = fs.readText(packageJsonPath);
  const packageJsonText = read.ok ? read.text : '';
  let packageJson: Record<string, unknown> = {};
  if (read.ok) {
    try {
      const parsed: unknown = JSON.parse(read.text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) packageJson = parsed as Record<string, unknown>;
    } catch {
      packageJson = {};
    }
  }
  const isPublished = published ?? isExposed(packageJson);
  const walked = fs.walk(root, isPublished ? undefined : PROJECT_SKIPPED_DIRS);
  const files = [...new Set(walked.files.map((f) => fs.realpath(f) ?? f))].sort();
  return {
    info: {
      root,
      packageJsonPath,
      packageJsonText,
      packageJson,
      files,
      publishedFiles: publishedFiles(root, files, packageJson.files),
      published: isPublished,
    },
    escapes: walked.escapes,
  };
}

/** The validated root (already loaded) first, then each other exposed package discovery found, once. */
export function loadPackages(fs: ValidatorFs, root: LoadedPackage, manifest: Manifest): LoadedPackage[] {
  const out = [root];
  const seen = new Set([root.info.root]);
  for (const ref of manifest.packages) {
    if (seen.has(ref.root)) continue;
    seen.add(ref.root);
    out.push(loadPackage(fs, ref.root, true));
  }
  return out;
}
