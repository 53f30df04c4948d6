import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WorkerStartupError } from '../check/errors.js';
import { declaredActivityFiles, type LoadedProject } from '../host/load.js';
import { declaredEntryWorkflow, entryWorkflowOf, withBundleSettings, workflowEntrySource, type EntryWorkflow } from './entry.js';
import { primeWebpackCache } from './prime.js';
import { CORE_WORKFLOW_REQUEST, type StubLoaderOptions, type StubSpec } from './stub-spec.js';
import { coreWorkflowEntry, keyedBundlerOptions, type WebpackResult, type WebpackRun } from './webpack.js';
import { runWebpackIsolated, type WebpackProcess } from './webpack-process.js';
import { BundleCache } from './cache.js';
import { holdBundling, type HeldBundling } from './bundling-lock.js';
import { atomicWrite, type FileDigests } from '../cache/file-digests.js';
import { digest, stableText } from './digest.js';
import type { BundleSettings as BundleTraceSettings } from '@skein/core/workflow';
import type { Manifest } from '@skein/discovery';

export { activityFileTest, coreWorkflowEntry, withTypeScriptSources } from './webpack.js';

/**
 * Where and whether bundles are cached: a directory (default `<project>/.skein/bundles`), or `false` for none. The
 * trace destinations (`traceDir`, `traceRemote`, `@skein/core`'s bundle settings) are constants of the returned
 * bundle (`withBundleSettings`), not part of the bundle cache's key: the bundle is built and cached without them.
 */
export interface BundleSettings extends BundleTraceSettings {
  /** Bundle cache directory; `false` bundles from scratch every time (no files written). */
  cacheDir?: string | false;
  /**
   * Whether a miss rebuilds from webpack's persistent cache (`<cacheDir>/webpack`) and returns `persist` to write
   * it (default true). `false`: every miss bundles from scratch and nothing writes webpack's cache. Without a bundle
   * cache there is no webpack cache either.
   */
  webpackCache?: boolean;
  /** The start's shared file digests (`FileDigests`), so the cache check reads each unchanged file at most once. */
  digests?: FileDigests;
}

/** A workflow bundle and how it was obtained. */
export interface WorkflowBundleResult {
  /** The bundle's code, for `Worker.create({ workflowBundle: { code } })`. */
  code: string;
  /** `hit`: served from the cache, webpack not run; `miss`: built (and stored); `off`: built, cache disabled. */
  cache: 'hit' | 'miss' | 'off';
  /** When webpack ran (a miss, or the cache off): the bundle's modules and how many webpack built rather than restored from its persistent cache. */
  modules?: { built: number; total: number };
  /**
   * When another process was bundling the same key as this start began (a worker of the project starting beside
   * it): how long (ms) this one waited for that bundling before going on (a hit on its bundle, or building its own
   * if it stored none).
   */
  waitedMs?: number;
  /** Why storing failed on a miss (the bundle is still returned), for a warning. */
  storeError?: Error;
  /**
   * On a miss with webpack's cache on (`BundleSettings.webpackCache`): writes webpack's persistent cache, held
   * back until called so that it does not compete with the start for CPU; resolves once written (later calls return
   * the same promise). webpack ran in a process that has ended, so a detached low-priority process builds the cache
   * (from the one there is, if any) and writes it (`primeWebpackCache`) and finishes on its own (`persistDetached`).
   * Under a TypeScript runner webpack ran in this process and, when it ran with its cache, the open compiler writes
   * it (`persistDetached` false): call it before the process exits to keep the cache. An interrupted write only
   * costs a full rebuild on a later miss (webpack discards an unreadable cache).
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

/** Everything one bundling of a project is made of, known before webpack runs (`planBundle`). */
interface BundlePlan {
  run: WebpackRun;
  /** The bundle cache's key (see `bundleWorkflows`). */
  configKey: string;
  /**
   * The version of webpack's persistent cache: the configuration key without the generated entry (its workflows).
   * webpack checks every module it restores against the files, and the entry is a module of its own at a
   * content-named path; what no module's identifier or files show (the tools, the stubs, the bundler options) is in
   * the version. So a new entry (a workflow added or renamed) rebuilds from the modules webpack already has instead
   * of from nothing.
   */
  webpackVersion: string;
  /** The activity files the stubs stand for (their bundle form is the stubs, in `configKey`). */
  stubbed: Set<string>;
  cache: BundleCache | null;
  /** Removes the generated inputs when there is no cache to keep them in. */
  dispose(): Promise<void>;
}

/** The bundle cache of `settings` for a project rooted at `root`, or null when off. */
function bundleCacheOf(root: string, settings: BundleSettings): BundleCache | null {
  return settings.cacheDir === false ? null : new BundleCache(path.resolve(settings.cacheDir ?? path.join(root, '.skein', 'bundles')), settings.digests);
}

/**
 * Writes the generated inputs of one bundling (the entry module, the stubs file) and computes its run and cache key.
 * `stubs` null: the stubs are not known yet (a bundle begun early): no stubs file, the run's stubs deferred, no key.
 */
async function planBundle(
  workflows: readonly EntryWorkflow[],
  stubs: Record<string, StubSpec[]> | null,
  activityFiles: readonly string[],
  roots: string[],
  settings: BundleSettings,
): Promise<BundlePlan> {
  const core = coreWorkflowEntry();
  const cache = bundleCacheOf(roots[0]!, settings);
  const entrySource = workflowEntrySource(workflows, core);
  // Generated inputs live at content-named paths, stable across restarts (webpack's cache keys on paths).
  const workDir = cache ? path.join(cache.dir, 'work') : await mkdtemp(path.join(tmpdir(), 'skein-bundle-'));
  await mkdir(workDir, { recursive: true });
  // Named after everything compiled into it, so two workers of one project that bundle different entries never write
  // the same file: each webpack run reads its own. The name stays out of the build ID: module ids drop its digest
  // (`module-ids.ts`) and the build ID hashes the code without its source map.
  const entryFile = path.join(workDir, `workflows-${digest(entrySource).slice(0, 16)}.cjs`);
  await writeIfChanged(entryFile, entrySource);
  const stubsText = stubs === null ? null : JSON.stringify(stubs);
  let stubsFile = '';
  if (stubsText !== null) {
    stubsFile = path.join(workDir, `stubs-${digest(stubsText).slice(0, 16)}.json`);
    await writeIfChanged(stubsFile, stubsText);
  }
  const loaderOptions: StubLoaderOptions = {
    stubsFile,
    stubSpecModule: new URL('./stub-spec.js', import.meta.url).href,
    coreWorkflowRequest: CORE_WORKFLOW_REQUEST,
  };
  const run: WebpackRun = { entryFile, loaderOptions, coreWorkflowEntry: core, roots, activityFiles: [...activityFiles] };
  // Everything but the entry, read once: the bundler options with a fixed entry path (the real one is named after the
  // entry's source, which the configuration key adds). `format` is the bundle's own form, raised whenever Skein writes
  // the same inputs differently (2: modules in id order).
  const withoutEntry =
    stubsText === null
      ? null
      : stableText({
          format: 2,
          tools: toolVersions(),
          roots,
          stubs: stubsText,
          options: keyedBundlerOptions({ ...run, entryFile: path.join(workDir, 'workflows.cjs') }),
        });
  const webpackVersion = withoutEntry === null ? '' : digest(withoutEntry);
  const configKey = withoutEntry === null ? '' : digest(stableText({ withoutEntry, entrySource }));
  return {
    run,
    configKey,
    webpackVersion,
    stubbed: new Set(Object.keys(stubs ?? {})),
    cache,
    dispose: async () => {
      if (!cache) await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Whether webpack's persistent cache of `cache` is used and holds anything (a cold one costs a build time: see `bundleWorkflows`). */
const webpackCacheWarm = (cache: BundleCache | null, settings: BundleSettings): boolean =>
  cache !== null && settings.webpackCache !== false && existsSync(cache.webpackDir) && readdirSync(cache.webpackDir).length > 0;

/**
 * A bundling begun before the project's modules are imported (`beginBundle`): webpack resolves and compiles the
 * workflow graph from what discovery read while the worker imports the definitions; `bundleWorkflows` with it as
 * `BundleSettings.early` hands over the stubs, or ends it when the import found a different entry.
 */
export interface EarlyBundle {
  /** The run begun, with deferred stubs. */
  readonly run: WebpackRun;
  /** The bundling process's run; settles once that process has exited. */
  readonly result: Promise<WebpackResult>;
  provideStubs(stubsFile: string): void;
  cancel(): Promise<void>;
}

/**
 * Begins bundling `manifest`'s workflows in `bundler` (started earlier, `startWebpackProcess`) before anything is
 * imported: the entry module from the workflows as discovery read them (`declaredEntryWorkflow`), every activity file
 * of the manifest stubbed, the stubs themselves deferred until `bundleWorkflows` has imported their facts. Only with
 * the bundle cache on and webpack's persistent cache not written yet, as in a fresh container: a warm webpack cache
 * needs the bundle's key, which needs the stubs (and without the bundle cache the entry lives in a folder of each
 * run's own). Returns null (and ends `bundler`) otherwise. Pass the same `settings` to `bundleWorkflows`.
 * @returns once the run has reached the bundling process.
 */
export async function beginBundle(manifest: Manifest, settings: BundleSettings, bundler: WebpackProcess): Promise<EarlyBundle | null> {
  const roots = [manifest.root, ...manifest.packages.map((p) => p.root)];
  const cache = bundleCacheOf(manifest.root, settings);
  if (cache === null || webpackCacheWarm(cache, settings)) {
    await bundler.cancel();
    return null;
  }
  const plan = await planBundle(manifest.workflows.map(declaredEntryWorkflow), null, declaredActivityFiles(manifest), roots, settings);
  const { sent, result } = bundler.run(plan.run);
  result.catch(() => {});
  await sent;
  return { run: plan.run, result, provideStubs: (file) => bundler.provideStubs(file), cancel: () => bundler.cancel() };
}

/** Whether an early bundle's run makes the bundle `plan` would: the same entry module, roots and stubbed files. */
function sameBundle(early: WebpackRun, plan: WebpackRun): boolean {
  const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;
  return early.entryFile === plan.entryFile && sameList(early.roots, plan.roots) && sameList(early.activityFiles, plan.activityFiles);
}

/**
 * Bundles every workflow of the project with Temporal's bundler (webpack), through the bundle cache
 * (`BundleCache`, under `settings.cacheDir`):
 * - bare imports resolve through the `skein-workflow-bundle` / `output-workflow-bundle` export conditions
 *   first, so `@skein/core` and packages offering a workflow-safe entry use it;
 * - every steps, evaluators and shared-activity file (by `classifyFile`, discovery's file conventions) is
 *   replaced by activity stubs (`stub-loader.cts`).
 * webpack runs in a child process that has exited when this resolves (`startWebpackProcess`). With
 * `settings.early` (`beginBundle`), that process is the one already under way when it bundles the same entry; it is
 * ended otherwise (a cache hit, or an entry that importing changed). On a miss it first holds the key's bundling
 * lock (`holdBundling`): where another process (a worker of the project starting beside this one) is bundling the
 * same key, this one waits for it and returns its bundle from the cache as a hit.
 * The cache key covers the generated entry module, the stubs, the full bundler options (including whatever
 * the webpack configuration hook sets), tool versions, and the content of every file webpack read except the
 * activity files the stubs stand for (so editing a step's body reuses the bundle). It leaves out the trace
 * destinations (`settings.traceDir`, `traceRemote`): the bundle is built and cached without them and the returned
 * code has them written in (`withBundleSettings`), so workers of one project with different trace folders share one.
 * @throws WorkerStartupError carrying webpack's own error text when bundling fails, or when a module of the project
 *   holds the entry's settings slot verbatim.
 */
export async function bundleWorkflows(project: LoadedProject, settings: BundleSettings & { early?: EarlyBundle | null } = {}): Promise<WorkflowBundleResult> {
  const { early } = settings;
  const stubs = Object.fromEntries(
    [...project.activityFiles]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, acts]) => [
        file,
        acts.map((a): StubSpec => ({ exportName: a.entry.exportName, name: a.facts.name, kind: a.facts.kind, activityOptions: a.facts.activityOptions })),
      ]),
  );
  const roots = [project.manifest.root, ...project.manifest.packages.map((p) => p.root)];
  const plan = await planBundle(project.workflows.map(entryWorkflowOf), stubs, [...project.activityFiles.keys()], roots, settings);
  const { run, configKey, webpackVersion, cache } = plan;
  // The bundle is built and cached without the trace destinations; each result carries this worker's.
  const withSettings = (code: string) => {
    try {
      return withBundleSettings(code, {
        ...(settings.traceDir ? { traceDir: settings.traceDir } : {}),
        ...(settings.traceRemote ? { traceRemote: settings.traceRemote } : {}),
      });
    } catch (err) {
      throw new WorkerStartupError(`Bundling workflow code failed: ${(err as Error).message}`);
    }
  };
  let taken: EarlyBundle | undefined;
  let held: HeldBundling | undefined;
  /** `{ waitedMs }` when another process held the bundling lock first (`WorkflowBundleResult.waitedMs`). */
  let waited: { waitedMs?: number } = {};
  try {
    if (cache) {
      const code = await cache.lookup(configKey);
      if (code !== null) return { code: withSettings(code), cache: 'hit' };
      // One bundling of a key at a time: a worker of the project starting beside this one may be building it now.
      // Its bundle is what this one would build, so this one waits (its early run ended, to leave the CPU to the
      // other) and takes the bundle from the cache.
      const asked = performance.now();
      held = await holdBundling(cache.dir, configKey, async () => {
        await early?.cancel();
      });
      if (held.waited) waited = { waitedMs: Math.round(performance.now() - asked) };
      // Looked up again with the lock held: a process that stored the bundle and let go between the first lookup
      // and this one leaves nothing to wait for, only the bundle.
      const stored = await cache.lookup(configKey);
      if (stored !== null) return { code: withSettings(stored), cache: 'hit', ...waited };
    }
    const persistent = cache && settings.webpackCache !== false ? { dir: cache.webpackDir, version: webpackVersion } : undefined;
    // webpack's cache costs a cold build time (snapshots, serialization): with none yet, build without it and
    // fill it later in the background; with one, rebuild from it.
    const warmWebpack = persistent !== undefined && webpackCacheWarm(cache, settings);
    if (early && !held?.waited && !warmWebpack && sameBundle(early.run, run)) taken = early;
    // An early run this bundling does not take ends before another starts: never two webpack processes at once.
    if (early && !taken) await early.cancel();
    let built: WebpackResult;
    try {
      if (taken) {
        taken.provideStubs(run.loaderOptions.stubsFile);
        built = await taken.result;
      } else {
        // In a process of its own that has exited before the worker serves: webpack's memory never stays in the serving process.
        built = await runWebpackIsolated(warmWebpack ? { ...run, persistent } : run);
      }
    } catch (err) {
      throw new WorkerStartupError(`Bundling workflow code failed:\n${(err as Error).message}`, (err as Error).stack);
    }
    const { modules } = built;
    const code = withSettings(built.code);
    if (!cache) return { code, cache: 'off', modules };
    // An activity file's bundle form is its stubs (in the configuration key), not its content: editing a step's
    // body leaves the bundle as it is.
    const storeError = await cache.store(configKey, built.code, { ...built.inputs, covered: plan.stubbed });
    const result: WorkflowBundleResult = persistent
      ? { code, cache: 'miss', modules, ...waited, persist: built.close ?? (() => primeWebpackCache({ ...run, persistent })), persistDetached: !built.close }
      : { code, cache: 'miss', modules, ...waited };
    return storeError ? { ...result, storeError } : result;
  } finally {
    await held?.release();
    if (early && early !== taken) await early.cancel();
    await plan.dispose();
  }
}

/**
 * Writes a generated input unless it already holds `text`, whole or not at all (`atomicWrite`): workers of one
 * project starting at once write the same entry, and a webpack run reading it must never see half of it.
 */
async function writeIfChanged(file: string, text: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current !== text) await atomicWrite(file, text);
}
