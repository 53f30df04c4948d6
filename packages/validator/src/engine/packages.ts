/**
 * The packages a validation covers: the validated root and every exposed package discovery found, each with its
 * package.json (read by the core's one reader) and its file list (the core's one walker, on the judged side of a
 * compiled layout). Symlinks that lead out of a package are reported as `fs/outside-package`.
 */
import * as path from 'node:path';
import {
  Diagnostics,
  exposeState,
  isSkippedDirName,
  layoutOf,
  readManifest,
  resolveEntry,
  walkFiles,
  type AnalysisSession,
  type Manifest,
} from '@skein/discovery';
import { meta as outsidePackage } from '../rules/fs/outside-package.js';
import type { PackageInfo } from '../types.js';
import { toDiagnostic } from './file-linter.js';
import { publishedFiles } from './published-files.js';

/** Upper bound on the files one package lists, so a pathological tree cannot exhaust memory. */
const MAX_PACKAGE_FILES = 200_000;

/**
 * Loads one package: package.json (absent or malformed: `{}`; discovery reports those) and its files.
 * @param published true/false to force, null to decide from the expose flag (package rule 4)
 */
export function loadPackage(session: AnalysisSession, root: string, published: boolean | null): PackageInfo {
  const read = readManifest(session.fs, root, new Diagnostics());
  const packageJson = read.ok ? read.json : {};
  const packageJsonText = read.ok ? read.text : '';
  const isPublished = published ?? exposeState(packageJson) === 'exposed';
  const entry = isPublished ? resolveEntry(session.fs, root, packageJson) : undefined;
  const layout = layoutOf(session.fs, root, entry?.ok ? entry.file : undefined);
  let count = 0;
  const files = walkFiles(
    session.fs,
    root,
    {
      skipDir: (name, real) => isSkippedDirName(name) || layout.skipped.has(real),
      wantFile: () => ++count <= MAX_PACKAGE_FILES,
      onOutside: (file, target) =>
        session.diagnostics.add(toDiagnostic(outsidePackage, file, { messageId: 'symlink', data: { file: path.relative(root, file), target } })),
    },
    session.diagnostics,
  );
  return {
    root,
    packageJsonPath: path.join(root, 'package.json'),
    packageJsonText,
    packageJson,
    files,
    publishedFiles: publishedFiles(root, files, packageJson, Array.isArray(packageJson.files) ? undefined : ignoreFileOf(session, root)),
    published: isPublished,
  };
}

/** The text of the root's `.npmignore`, else of its `.gitignore` (npm's fallback), or undefined when it has neither. */
function ignoreFileOf(session: AnalysisSession, root: string): string | undefined {
  for (const name of ['.npmignore', '.gitignore']) {
    try {
      return session.fs.readFile(path.join(root, name));
    } catch {
      // absent or unreadable: npm reads the next one
    }
  }
  return undefined;
}

/** The validated root first (published when discovery judged it as a package), then each exposed package, once. */
export function loadPackages(session: AnalysisSession, root: string, manifest: Manifest): PackageInfo[] {
  const out = [loadPackage(session, root, manifest.mode === 'package' ? true : null)];
  const seen = new Set([root]);
  for (const ref of manifest.packages) {
    if (seen.has(ref.root)) continue;
    seen.add(ref.root);
    out.push(loadPackage(session, ref.root, true));
  }
  return out;
}
