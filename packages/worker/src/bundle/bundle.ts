import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerStartupError } from '../check/errors.js';
import type { LoadedProject } from '../host/load.js';
import { workflowEntrySource } from './entry.js';
import { primeWebpackCache } from './prime.js';
import type { StubLoaderOptions, StubSpec } from './stub-spec.js';
import { coreWorkflowEntry, keyedBundlerOptions, type WebpackRun } from './webpack.js';
import { runWebpackIsolated } from './webpack-process.js';
import { BundleCache } from './cache.js';
import type { FileDigests } from '../cache/file-digests.js';
import { digest, stableText } from './digest.js';
import type { RemoteTraceLocation } from '@skein/names/traces';

export { activityFileTest, coreWorkflowEntry, withTypeScriptSources } from './webpack.js';

/** Where and whether bundles are cached: a directory (default `<project>/.skein/bundles`), or `false` for none. */
export interface BundleSettings {
  /** Compiled into the bundle (`configureBundle`): local trace directory. */
  traceDir?: string;
  /** Compiled into the bundle (`configureBundle`): the S3 trace destination, whose object URLs runs publish. */
  traceRemote?: RemoteTraceLocation;
  /** Bundle cache directory; `false` bundles from scratch every time (no files written). */
  cacheDir?: string | false;
  /** The start's shared file digests (`FileDigests`), so the cache check reads each unchanged file at most once. */
  digests?: FileDigests;
}

/** A workflow bundle and how it was obtained. */
export interface WorkflowBundleResult {
  /** The bundle's code, for `Worker.create({ workflowBundle: { code } })`. */
  code: string;
  /** `hit`: served from the cache, webpack not run; `miss`: built (and stored); `off`: built, cache disabled. */
  cache: 'hit' | 'miss' | 'off';
  /** Why storing failed on a miss (the bundle is still returned), for a warning. */
  storeError?: Error;
  /**
   * On a miss: writes webpack's persistent cache, held back until called so that it does not compete with the
   * start for CPU; resolves once written (later calls return the same promise). webpack ran in a process that has
   * ended, so a detached low-priority process builds the cache (from the one there is, if any) and writes it
   * (`primeWebpackCache`) and finishes on its own (`persistDetached`). Under a TypeScript runner webpack ran in
   * this process and, when it ran with its cache, the open compiler writes it (`persistDetached` false): call it
   * before the process exits to keep the cache. An interrupted write only costs a full rebuild on a later miss
   * (webpack discards an unreadable cache).
   */
  persist?: () => Promise<void>;
  /** Whether `persist` runs in a process of its own that outlives this one (no need to wait for it). */
  persistDetached?: boolean;
}

/** Versions of everything outside the project that shapes the bundle: Skein's, Temporal's, webpack's. */
function toolVersions(): Record<string, string> {
  const require = createRequire(import.meta.url);
  const temporalWorker = require.resolve('@temporalio/worker/package.json');
  const version = (pkgJson: string) => (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version;
  /** The version in the nearest package.json above `file` (for packages whose exports hide package.json). */
  const versionNear = (file: string): string => {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, 'package.json'))) return version(path.join(dir, 'package.json'));
      if (path.dirname(dir) === dir) return 'unknown';
    }
  };
  const own = path.dirname(fileURLToPath(import.meta.url));
  const interceptors = path.join(own, '..', 'interceptors');
  // The bundling code itself (this folder) and the workflow interceptors compiled into every bundle, by content:
  // Skein's own development changes them without a version bump.
  const code = (dir: string, only: RegExp) =>
    readdirSync(dir)
      .filter((f) => /\.(c?[jt]s)$/.test(f) && only.test(f))
      .map((f) => `${path.relative(own, path.join(dir, f))}:${digest(readFileSync(path.join(dir, f)))}`);
  const sources = [...code(own, /./), ...code(interceptors, /^(tracing-interceptors|workflow-tracing)\./)].sort();
  return {
    skeinWorker: version(fileURLToPath(new URL('../../package.json', import.meta.url))),
    skeinCore: versionNear(coreWorkflowEntry()),
    temporalWorker: version(temporalWorker),
    temporalWorkflow: version(fileURLToPath(import.meta.resolve('@temporalio/workflow/package.json'))),
    webpack: version(createRequire(temporalWorker).resolve('webpack/package.json')),
    bundler: digest(sources.join('\n')),
  };
}

/**
 * Bundles every workflow of the project with Temporal's bundler (webpack), through the bundle cache
 * (`BundleCache`, under `settings.cacheDir`):
 * - bare imports resolve through the `skein-workflow-bundle` / `output-workflow-bundle` export conditions
 *   first, so `@skein/core` and packages offering a workflow-safe entry use it;
 * - every steps, evaluators and shared-activity file (by `classifyFile`, discovery's file conventions) is
 *   replaced by activity stubs (`stub-loader.cts`).
 * webpack runs in a child process that has exited when this resolves (`runWebpackIsolated`).
 * The cache key covers the generated entry module, the stubs, the full bundler options (including whatever
 * the webpack configuration hook sets), tool versions, and the content of every file webpack read except the
 * activity files the stubs stand for (so editing a step's body reuses the bundle).
 * @throws WorkerStartupError carrying webpack's own error text when bundling fails.
 */
export async function bundleWorkflows(project: LoadedProject, settings: BundleSettings = {}): Promise<WorkflowBundleResult> {
  const core = coreWorkflowEntry();
  const cache =
    settings.cacheDir === false
      ? null
      : new BundleCache(path.resolve(settings.cacheDir ?? path.join(project.manifest.root, '.skein', 'bundles')), settings.digests);
  const entrySource = workflowEntrySource(project.workflows, core, {
    ...(settings.traceDir ? { traceDir: settings.traceDir } : {}),
    ...(settings.traceRemote ? { traceRemote: settings.traceRemote } : {}),
  });
  const stubs = Object.fromEntries(
    [...project.activityFiles]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, acts]) => [
        file,
        acts.map((a): StubSpec => ({ exportName: a.entry.exportName, name: a.facts.name, kind: a.facts.kind, activityOptions: a.facts.activityOptions })),
      ]),
  );
  const stubsText = JSON.stringify(stubs);
  // Generated inputs live at content-named paths, stable across restarts (webpack's cache keys on paths).
  const workDir = cache ? path.join(cache.dir, 'work') : await mkdtemp(path.join(tmpdir(), 'skein-bundle-'));
  await mkdir(workDir, { recursive: true });
  // Named after everything compiled into it (the trace destinations included), so two workers of one project that
  // bundle different entries never write the same file: each webpack run reads its own. The name stays out of the
  // build ID: module ids drop its digest (`module-ids.ts`) and the build ID hashes the code without its source map.
  const entryFile = path.join(workDir, `workflows-${digest(entrySource).slice(0, 16)}.cjs`);
  const stubsFile = path.join(workDir, `stubs-${digest(stubsText).slice(0, 16)}.json`);
  await writeIfChanged(entryFile, entrySource);
  await writeIfChanged(stubsFile, stubsText);
  const loaderOptions: StubLoaderOptions = { stubsFile, stubSpecModule: new URL('./stub-spec.js', import.meta.url).href, coreWorkflowEntry: core };
  const run: WebpackRun = {
    entryFile,
    loaderOptions,
    roots: [project.manifest.root, ...project.manifest.packages.map((p) => p.root)],
    activityFiles: [...project.activityFiles.keys()],
  };
  const configKey = digest(
    stableText({
      format: 1,
      tools: toolVersions(),
      roots: run.roots,
      entrySource,
      stubs: stubsText,
      options: keyedBundlerOptions(run),
    }),
  );
  if (cache) {
    const code = await cache.lookup(configKey);
    if (code !== null) return { code, cache: 'hit' };
  }
  const persistent = cache ? { dir: cache.webpackDir, version: configKey } : undefined;
  // webpack's cache costs a cold build time (snapshots, serialization): with none yet, build without it and
  // fill it later in the background; with one, rebuild from it.
  const warmWebpack = persistent !== undefined && existsSync(persistent.dir) && readdirSync(persistent.dir).length > 0;
  try {
    // In a process of its own that has exited before the worker serves: webpack's memory never stays in the serving process.
    const built = await runWebpackIsolated(warmWebpack ? { ...run, persistent } : run);
    const code = built.code;
    if (!cache || !persistent) return { code, cache: 'off' };
    const persist = built.close ?? (() => primeWebpackCache({ ...run, persistent }));
    // An activity file's bundle form is its stubs (in the configuration key), not its content: editing a step's
    // body leaves the bundle as it is.
    const storeError = await cache.store(configKey, code, { ...built.inputs, covered: new Set(Object.keys(stubs)) });
    const result: WorkflowBundleResult = { code, cache: 'miss', persist, persistDetached: !built.close };
    return storeError ? { ...result, storeError } : result;
  } catch (err) {
    throw new WorkerStartupError(`Bundling workflow code failed:\n${(err as Error).message}`, (err as Error).stack);
  } finally {
    if (!cache) await rm(workDir, { recursive: true, force: true });
  }
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current !== text) await writeFile(file, text);
}
