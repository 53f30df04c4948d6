/**
 * `validate(root)`: checks a workflow package or a whole project against the package rules
 * (docs/package-rules.md), statically, and returns every finding at once. Used by the `validate-workflow-package` CLI and by the
 * worker at startup (it refuses to start on errors). Built on the analysis core: one session (file system,
 * module store, diagnostics sink) that `discover()` fills first and the validator's rules continue; each file is
 * read, parsed and walked once. Never imports, requires or executes the package's code, and never follows a
 * symlink out of the package.
 */
import * as path from 'node:path';
import { classifyFile, confineFileSystem, createSession, DEFAULT_MAX_FILE_BYTES, discover, nodeFileSystem, prepareForShapes, shapesOf } from '@skein/discovery';
import { FileLinter, toDiagnostic } from './engine/file-linter.js';
import { loadPackages } from './engine/packages.js';
import { runFiles } from './engine/run-files.js';
import { keyOptions, ValidationFileCache } from './cache/file-cache.js';
import { ValidationInputError } from './errors.js';
import { recordingFileSystem } from '@skein/discovery/observations';
import { createResolver } from './graph/resolve.js';
import { VERSION } from './package-info.js';
import { fileRules, projectRules } from './rules/index.js';
import { pinnedChanges } from './versioning/check.js';
import type { ValidateOptions, ValidationReport } from './types.js';

export { DEFAULT_MAX_FILE_BYTES };

export { ValidationInputError };

/**
 * Validates the package or project at `root`.
 * @param root a package directory (or a packed tarball's extracted `package/` directory) or a project root
 * @param options `maxFileBytes`: larger files get `fs/file-too-large` and are not parsed (default 1 MiB);
 *   `mode`: `auto` (default), `package` or `project` (see `ValidateOptions`); `baseline`: command shapes the
 *   `versioning/*` rules compare the new code with; `cache`: a per-file cache file (read first, written at the end):
 *   files whose content did not change since it was written are neither parsed nor walked, the report is the same
 *   (`validateWithCache` adds the fast path of an unchanged project); `shapes`: also every workflow's command
 *   shapes (`report.shapes`), from the same parse
 * @returns the manifest and every finding (discovery's and the validator's), sorted, each reported once
 * @throws ValidationInputError when `root` does not exist or is not a directory, or `maxFileBytes` is not positive
 */
export async function validate(root: string, options: ValidateOptions = {}): Promise<ValidationReport> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isFinite(maxFileBytes) || maxFileBytes <= 0) throw new ValidationInputError(`maxFileBytes must be a positive number, got ${maxFileBytes}`);
  const base = options.fs ?? nodeFileSystem;
  let realRoot: string;
  try {
    realRoot = base.realpath(path.resolve(root));
    if (base.stat(realRoot).kind !== 'directory') throw new ValidationInputError(`${root} is not a directory`);
  } catch (error) {
    if (error instanceof ValidationInputError) throw error;
    throw new ValidationInputError(`${root} does not exist or cannot be read`);
  }

  const mode = options.mode ?? 'auto';
  const cache =
    options.cache &&
    new ValidationFileCache(
      options.cache.file,
      { version: VERSION, options: keyOptions(options, maxFileBytes, mode), root: realRoot },
      options.cache.onWarning ?? (() => {}),
    );
  // With the cache and Node's file system, every answer is recorded: the report is stored with them (the fast path
  // of `validateWithCache` reuses it while the answers hold).
  const recorder = cache && !options.fs ? recordingFileSystem(base, true) : undefined;
  const session = createSession({ fs: confineFileSystem(cache ? cache.fileSystem(recorder?.fs ?? base) : base, [realRoot]), maxFileBytes });
  const resolver = createResolver(session.fs, () => session.ownRoots, classifyFile);
  const linter = new FileLinter(
    session,
    fileRules,
    (file, specifier) => resolver.resolve(file, specifier),
    (file) => resolver.packageRootOf(file) ?? path.dirname(file),
  );
  session.store.hook = linter;
  if (cache) {
    session.store.cache = cache;
    linter.recording = true;
  }
  // With a baseline, unchanged workflows keep the baseline's shape.
  if (options.baseline || options.shapes) prepareForShapes(session, realRoot, options.baseline);
  const manifest = await discover(realRoot, { session, mode });
  options.onManifest?.(manifest);
  const packages = loadPackages(session, realRoot, manifest);
  const { graph, filesChecked } = runFiles({ linter, resolver, packages, classify: classifyFile });
  const versioning = options.baseline ? { baseline: options.baseline, current: shapesOf(session, manifest, options.baseline), root: realRoot } : undefined;
  const shapes = options.shapes ? (versioning?.current ?? shapesOf(session, manifest)) : undefined;
  /** Files whose text a project rule read (their content reaches the report other than through their record). */
  const readAsText = new Set<string>();

  for (const rule of projectRules) {
    await rule.check({
      manifest,
      packages,
      graph,
      classify: classifyFile,
      readText: (file) => {
        readAsText.add(file);
        try {
          return session.fs.readFile(file);
        } catch {
          return null;
        }
      },
      factoryMadeDefinitions: (file) => session.store.factoryMadeDefinitions(file),
      report: (d) => session.diagnostics.add(toDiagnostic(rule.meta, d.file, d)),
      ...(versioning ? { versioning } : {}),
    });
  }

  const diagnostics = session.diagnostics.sorted();
  let errorCount = 0;
  for (const d of diagnostics) if (d.severity === 'error') errorCount++;
  const report: ValidationReport = { root: realRoot, manifest, diagnostics, errorCount, warningCount: diagnostics.length - errorCount, filesChecked };
  if (versioning) report.pinnedChanges = pinnedChanges(versioning);

  if (cache) {
    let snapshot;
    if (recorder) {
      const files = new Map<string, string[]>();
      for (const file of cache.files()) if (!file.endsWith('.json') && !readAsText.has(file)) files.set(file, linter.roles.get(file) ?? []);
      snapshot = { report, observations: recorder.observations(), files, ownRoots: session.ownRoots };
      options.cache?.onAnswers?.(snapshot.observations);
    }
    options.cache?.onStats?.({ loaded: cache.stats.loaded, files: cache.size, parsed: session.store.filesParsed });
    const error = cache.save(snapshot);
    if (error) options.cache?.onWarning?.(`cannot write the cache file ${options.cache.file} (${error.message}); the next run validates without it`);
  }
  // Added after the cache has written its snapshot of the report: the cache never stores shapes.
  if (shapes) report.shapes = shapes;
  return report;
}
