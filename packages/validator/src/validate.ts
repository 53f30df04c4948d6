/**
 * `validate(root)`: checks a workflow package or a whole project against SPEC's "Rules for external
 * workflow packages", statically, and returns every finding at once. Used by the
 * `validate-workflow-package` CLI and by the worker at startup (it refuses to start on errors).
 * Never imports, requires or executes the package's code, and never reads outside the package and the
 * dependencies its workflow code imports.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { classifyFile } from './discovery.js';
import { discoverRoot } from './engine/discover-root.js';
import { countBySeverity, sortAndDedupe } from './engine/diagnostics.js';
import { toDiagnostic } from './engine/lint-file.js';
import { loadPackage, loadPackages } from './engine/packages.js';
import { runFiles } from './engine/run-files.js';
import { createConfinedFs } from './fs/confined-fs.js';
import { createResolver } from './graph/resolve.js';
import { meta as outsidePackage } from './rules/fs/outside-package.js';
import { fileRules, projectRules } from './rules/index.js';
import type { ValidateOptions, ValidationReport, ValidatorDiagnostic } from './types.js';

/** Default `maxFileBytes`: 1 MiB, the same cap discovery uses. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** Thrown when `root` is not a readable directory (a usage error: the CLI exits 2). */
export class ValidationInputError extends Error {
  override name = 'ValidationInputError';
}

/**
 * Validates the package or project at `root`.
 * @param root a package directory (or a packed tarball's extracted `package/` directory) or a project root
 * @param options `maxFileBytes`: larger files get `fs/file-too-large` and are not parsed (default 1 MiB)
 * @returns the manifest and every finding (discovery's and the validator's), sorted and de-duplicated
 * @throws ValidationInputError when `root` does not exist or is not a directory
 */
export async function validate(root: string, options: ValidateOptions = {}): Promise<ValidationReport> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isFinite(maxFileBytes) || maxFileBytes <= 0) throw new ValidationInputError(`maxFileBytes must be a positive number, got ${maxFileBytes}`);
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(path.resolve(root));
    if (!(await fsp.stat(realRoot)).isDirectory()) throw new ValidationInputError(`${root} is not a directory`);
  } catch (error) {
    if (error instanceof ValidationInputError) throw error;
    throw new ValidationInputError(`${root} does not exist or cannot be read`);
  }

  const rootFs = createConfinedFs([realRoot], maxFileBytes);
  const rootPackage = loadPackage(rootFs, realRoot, null);
  const manifest = await discoverRoot(realRoot, rootPackage.info.published, rootPackage.info.packageJson.name, maxFileBytes);
  const fs = createConfinedFs([realRoot, ...manifest.packages.map((p) => p.root)], maxFileBytes);
  const loaded = loadPackages(fs, rootPackage, manifest);
  const packages = loaded.map((l) => l.info);
  const mine: ValidatorDiagnostic[] = [];
  const report = (d: ValidatorDiagnostic) => mine.push(d);

  for (const { info, escapes } of loaded) {
    for (const e of escapes) {
      report(toDiagnostic({ meta: outsidePackage }, e.path, { messageId: 'symlink', data: { file: path.relative(info.root, e.path), target: e.target } }));
    }
  }

  const discovered = new Set(manifest.diagnostics.map((d) => `${d.ruleId}\0${d.file}`));
  const resolver = createResolver(fs, packages.map((p) => p.root), classifyFile);
  const { graph, filesChecked } = runFiles({
    fs,
    resolver,
    packages,
    rules: fileRules,
    classify: classifyFile,
    alreadyReported: (ruleId, file) => discovered.has(`${ruleId}\0${file}`),
    report,
  });

  for (const rule of projectRules) {
    await rule.check({
      manifest,
      packages,
      graph,
      classify: classifyFile,
      readText: (file) => {
        const r = fs.readText(file);
        return r.ok ? r.text : null;
      },
      report: (d) => report(toDiagnostic(rule, d.file, d)),
    });
  }

  const supersedesOf = new Map([...fileRules, ...projectRules].map((r) => [r.meta.id, r.supersedes ?? []]));
  const superseded = new Set(mine.flatMap((d) => (supersedesOf.get(d.ruleId) ?? []).map((id) => `${id}\0${d.file}\0${d.line}`)));
  const fromDiscovery = manifest.diagnostics.filter((d) => !superseded.has(`${d.ruleId}\0${d.file}\0${d.line}`));
  const diagnostics = sortAndDedupe([...fromDiscovery, ...mine]);
  return { root: realRoot, manifest, diagnostics, ...countBySeverity(diagnostics), filesChecked };
}
