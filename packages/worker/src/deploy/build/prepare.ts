import type { RemoteTraceLocation } from '@skein/names/traces';
import type { Manifest, ShapeSet } from '@skein/discovery';
import type { StartupCaches } from '../../cache/startup-caches.js';
import { FileDigests } from '../../cache/file-digests.js';
import { digestProjectCode } from '../build-id.js';
import { reduceHeap } from '@skein/settings/heap';
import type { Logger } from 'pino';
import { beginBundle, bundleWorkflows, type BundleSettings, type EarlyBundle } from '../../bundle/bundle.js';
import { startWebpackProcess } from '../../bundle/webpack-process.js';
import { openStartupCaches, startupCacheDir } from '../../cache/startup-caches.js';
import { bundleCacheDirOf, loadWorkerConfig, traceDirOf } from '../../host/config.js';
import { loadProject, type LoadedProject } from '../../host/load.js';
import { traceRemoteOf } from '../../traces/setup.js';
import { enableTypeScriptSources } from '../../host/typescript/resolve-hook.js';
import { finishProjectCheck, beginProjectCheck } from '../../check/validate.js';

/** A project checked, loaded and bundled the way a worker serving it would: what a build holds and a replay runs. */
export interface PreparedProject {
  manifest: Manifest;
  project: LoadedProject;
  /** The workflow bundle (`Worker.create({ workflowBundle: { code } })`). */
  workflowCode: string;
  /** The local trace directory compiled into the bundle (absolute), or null for none. */
  traceDir: string | null;
  /** The S3 trace destination compiled into the bundle (`traceRemoteOf` of the settings), or null for none. */
  traceRemote: RemoteTraceLocation | null;
  /** Whether the bundle came from the bundle cache. */
  bundleCache: 'hit' | 'miss' | 'off';
  /** With `PrepareOptions.shapes`, when the project was validated now: every workflow's command shapes. */
  shapes?: ShapeSet;
  /**
   * The file digests of this preparation (with `PrepareOptions.buildId`, the project's code files among them): its build
   * ID reads through them.
   */
  digests: FileDigests;
}

/** Options of `prepareProject`; each defaults as for `startWorker` (environment, then `<projectDir>/.skein/...`). */
export interface PrepareOptions {
  logger: Logger;
  /** Startup cache directory, or `false` for none (see `startupCacheDir`). */
  startupCache?: string | false;
  /** Workflow bundle cache directory, or `false` for none (see `bundleCacheDirOf`). */
  bundleCache?: string | false;
  /** Local trace directory compiled into the bundle, or `false` for none (see `traceDirOf`). */
  traceDir?: string | false;
  /**
   * Derive the workflows' command shapes from the validation's own parse (`PreparedProject.shapes`), as `skein
   * build` records them; a cached outcome has none (`writeBuild` then derives them).
   */
  shapes?: boolean;
  /**
   * Hash the project's code files for its build ID while webpack works (into `PreparedProject.digests`), as `skein
   * build` does: `writeBuild` then only looks them up. A replay needs no build ID.
   */
  buildId?: boolean;
}

/**
 * Validates the project at `projectDir` (refusing it on any error), imports its definitions and bundles its
 * workflow code, through the same startup and bundle caches as a worker start: the steps `startWorker` takes
 * before it contacts the engine, for `skein build` and `skein replay`. The three overlap where they can: the bundling
 * process starts (and loads webpack) with the validation; on a cold bundle cache it compiles from the manifest
 * discovery read (`beginBundle`) while the rules run and the definitions are imported; the project's code files are
 * hashed for the build ID (`PrepareOptions.buildId`) while webpack works. webpack executes nothing of the project,
 * and nothing is imported before the validation passed.
 * @throws WorkerStartupError: invalid project (the validator's report), a module that fails to load, bundling failure,
 *   an S3 trace destination set without an AWS region.
 */
export async function prepareProject(projectDir: string, options: PrepareOptions): Promise<PreparedProject> {
  enableTypeScriptSources();
  // The bundling process loads webpack while the project is validated, and compiles the workflow code from the
  // discovered manifest while the rules run and the definitions are imported.
  const bundler = startWebpackProcess();
  const config = loadWorkerConfig();
  // The same S3 destination a worker starting on the project would compile in.
  const traceRemote = traceRemoteOf(config.trace).then((t) => t?.remote ?? null);
  traceRemote.catch(() => {});
  let bundling: Promise<{ settings: BundleOutput; early: EarlyBundle | null }> | undefined;
  /** Begins the bundling once, from the first manifest told (the discovered one, or the report's). */
  const begin = (manifest: Manifest, caches: StartupCaches | undefined) => {
    bundling ??= traceRemote.then(async (remote) => {
      const settings = bundleOutput(manifest.root, remote, options, config, caches);
      return { settings, early: await beginBundle(manifest, settings.bundle, bundler) };
    });
    bundling.catch(() => {});
    return bundling;
  };
  try {
    const startupDir = startupCacheDir(projectDir, options.startupCache);
    const caches = startupDir === false ? undefined : openStartupCaches(startupDir);
    const check = beginProjectCheck(projectDir, caches, { shapes: options.shapes === true, onManifest: (manifest) => void begin(manifest, caches) });
    const checked = await finishProjectCheck(check, options.logger);
    const manifest = checked.manifest;
    // A report from the cache told no manifest before it: the bundling begins now.
    const { settings, early } = await begin(manifest, caches);
    const project = await loadProject(manifest, caches);
    const digests = settings.bundle.digests ?? new FileDigests(null);
    const bundle = bundleWorkflows(project, { ...settings.bundle, digests, early });
    bundle.catch(() => {}); // awaited below, after the hashing
    // webpack works in its process meanwhile: the build ID's files are hashed now, not after it.
    if (options.buildId === true) await digestProjectCode([manifest.root, ...manifest.packages.map((p) => p.root)], digests);
    // The imports' garbage is returned to the system before webpack's process reaches its peak, at its end: the two
    // processes' peaks add up. (Waiting for the bundle, this process would shrink only seconds later.)
    if (project.counts.imported > 0) reduceHeap();
    const bundled = await bundle;
    await caches?.digests.save();
    return {
      manifest,
      project,
      workflowCode: bundled.code,
      traceDir: settings.traceDir,
      traceRemote: settings.traceRemote,
      bundleCache: bundled.cache,
      ...(checked.shapes ? { shapes: checked.shapes } : {}),
      digests,
    };
  } finally {
    // Ended here when the check refused the project, an import failed, or the bundle came from the cache.
    const early = bundling ? (await bundling.catch(() => null))?.early : null;
    await (early ?? bundler).cancel();
  }
}

/** Where a prepared project's bundle goes and what is compiled into it. */
interface BundleOutput {
  traceDir: string | null;
  traceRemote: RemoteTraceLocation | null;
  bundle: BundleSettings;
}

/** The trace destinations and bundle cache of the project at `root`, as a worker starting on it would use them. */
function bundleOutput(
  root: string,
  traceRemote: RemoteTraceLocation | null,
  options: PrepareOptions,
  config: ReturnType<typeof loadWorkerConfig>,
  caches: StartupCaches | undefined,
): BundleOutput {
  const traceDir = traceDirOf(root, options.traceDir, config.traceDir);
  return {
    traceDir,
    traceRemote,
    bundle: {
      ...(traceDir ? { traceDir } : {}),
      ...(traceRemote ? { traceRemote } : {}),
      cacheDir: bundleCacheDirOf(root, options.bundleCache, config.bundleCache),
      webpackCache: config.webpackCache,
      ...(caches ? { digests: caches.digests } : {}),
    },
  };
}
