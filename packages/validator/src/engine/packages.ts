/**
 * The packages a validation covers: the validated root and every exposed package discovery found, each with the
 * facts discovery worked out of it (package.json, entry, layout, file list on the judged side of a compiled
 * layout, kept on the analysis session) and what only the validator asks: the files a publish would include.
 * Symlinks that lead out of a package are reported as `fs/outside-package`.
 */
import * as path from 'node:path';
import { packageFactsOf, type AnalysisSession, type Manifest } from '@skein/discovery';
import { meta as outsidePackage } from '../rules/fs/outside-package.js';
import type { PackageInfo } from '../types.js';
import { toDiagnostic } from './file-linter.js';
import { publishedFiles } from './published-files.js';

/**
 * One package as the rules see it: discovery's facts of it (package.json, whether it is published, file list),
 * which the session holds, plus the files a publish would include. Its symlinks that lead out of it are reported
 * here as `fs/outside-package`.
 * @param published true/false to force, null to decide from the expose flag (package rule 4); used only when the
 *   session holds no facts of `root` yet
 */
export function loadPackage(session: AnalysisSession, root: string, published: boolean | null): PackageInfo {
  const facts = packageFactsOf(session, root, published);
  for (const { file, target } of facts.outside) {
    session.diagnostics.add(toDiagnostic(outsidePackage, file, { messageId: 'symlink', data: { file: path.relative(root, file), target } }));
  }
  return {
    root,
    packageJsonPath: facts.manifest,
    packageJsonText: facts.text,
    packageJson: facts.json,
    files: facts.files,
    publishedFiles: publishedFiles(root, facts.files, facts.json, Array.isArray(facts.json.files) ? undefined : ignoreFileOf(session, root)),
    published: facts.published,
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
