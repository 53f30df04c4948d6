import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type BundleOptions } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_CONDITIONS } from '@skein/core';
import { WorkerStartupError } from '../errors.js';
import type { LoadedProject } from '../load.js';
import { workflowEntrySource } from './entry.js';
import { classifyFile } from '@skein/discovery';
import type { StubLoaderOptions, StubSpec } from './stub-spec.js';
import { BundleCache } from './cache.js';
import type { FileDigests } from '../cache/file-digests.js';
import { digest, stableText } from './digest.js';
import { withoutSourcesContent } from './source-map.js';

/** The loader module next to this one: `.cjs` when compiled, the `.cts` source under a TypeScript runner. */
const stubLoaderPath = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './stub-loader.cts' : './stub-loader.cjs', import.meta.url));

/** Absolute path of `@skein/core`'s workflow-safe entry (the `skein-workflow-bundle` condition's target). */
export function coreWorkflowEntry(): string {
  return fileURLToPath(import.meta.resolve('@skein/core/workflow'));
}

/**
 * Which modules of the bundle are replaced by activity stubs: every activity file the worker loaded, plus any
 * other file that discovery's conventions (`classifyFile`) call a steps, evaluators or shared-activity file and
 * that belongs to the project or to an exposed package itself (not to one of their dependencies, whose own
 * `steps.js` is ordinary code).
 */
export function activityFileTest(project: LoadedProject, stubs: { has(file: string): boolean }): (file: string) => boolean {
  const roots = [project.manifest.root, ...project.manifest.packages.map((p) => p.root)];
  const owned = (file: string) =>
    roots.some((root) => {
      const rel = path.relative(root, file);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split(path.sep).includes('node_modules');
    });
  return (file) => {
    if (stubs.has(file)) return true;
    const role = classifyFile(file);
    return role !== null && role !== 'workflow' && owned(file);
  };
}

/** The `node_modules` folder holding the worker's own `@temporalio/workflow`, for modules the bundler injects. */
function temporalModulesDir(): string {
  const workflowEntry = fileURLToPath(import.meta.resolve('@temporalio/workflow'));
  return workflowEntry.slice(0, workflowEntry.lastIndexOf(`${path.sep}@temporalio${path.sep}`));
}

/** Where and whether bundles are cached: a directory (default `<project>/.skein/bundles`), or `false` for none. */
export interface BundleSettings {
  /** Compiled into the bundle (`configureBundle`): local trace directory. */
  traceDir?: string;
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
   * On a miss: writes webpack's persistent cache (held back until called, so that the write does not compete
   * with the start for CPU) and resolves once it is written; later calls return the same promise. Call it
   * before the process exits to keep the cache; an interrupted write only costs a full rebuild on a later
   * miss (webpack discards an unreadable cache).
   */
  persist?: () => Promise<void>;
}

/** Temporal's webpack configuration object, as its configuration hook receives it. */
type Configuration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

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
  // The bundling code itself (this folder) by content: Skein's own development changes it without a version bump.
  const sources = readdirSync(own)
    .filter((f) => /\.(c?[jt]s)$/.test(f))
    .sort()
    .map((f) => `${f}:${digest(readFileSync(path.join(own, f)))}`);
  return {
    skeinWorker: version(fileURLToPath(new URL('../../package.json', import.meta.url))),
    skeinCore: versionNear(coreWorkflowEntry()),
    temporalWorker: version(temporalWorker),
    temporalWorkflow: version(fileURLToPath(import.meta.resolve('@temporalio/workflow/package.json'))),
    webpack: version(createRequire(temporalWorker).resolve('webpack/package.json')),
    bundler: digest(sources.join('\n')),
  };
}

/** A stand-in for Temporal's own webpack configuration, to record what a configuration hook adds to it. */
function probeConfig(): Configuration {
  return {
    resolve: { modules: ['node_modules'], extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } },
    module: { rules: [] },
    plugins: [],
  };
}

/**
 * TypeScript in workflow code (issue "TypeScript at run time"). Temporal's bundler already compiles `.ts`
 * outside node_modules with swc-loader (transpile only; enums and namespaces included) and maps `./x.js` to
 * `./x.ts`; this widens the same rule to `.mts`/`.cts` and maps `.mjs`/`.cjs` imports to them. Its inline source
 * maps (`devtoolModuleFilenameTemplate: [absolute-resource-path]`) make workflow stack traces name `.ts` lines.
 * Mutates and returns `config`.
 */
export function withTypeScriptSources(config: Configuration): Configuration {
  const resolve = (config.resolve ??= {});
  resolve.extensions = [...new Set([...(resolve.extensions ?? ['.ts', '.js']), '.mts', '.cts'])];
  resolve.extensionAlias = {
    '.js': ['.ts', '.js'],
    ...resolve.extensionAlias,
    '.mjs': ['.mts', '.mjs'],
    '.cjs': ['.cts', '.cjs'],
  };
  for (const rule of config.module?.rules ?? []) {
    if (rule && typeof rule === 'object' && rule.test instanceof RegExp && rule.test.test('workflow.ts')) rule.test = /\.[cm]?ts$/;
  }
  return config;
}

/**
 * Bundles every workflow of the project with Temporal's bundler (webpack), through the bundle cache
 * (`BundleCache`, under `settings.cacheDir`):
 * - bare imports resolve through the `skein-workflow-bundle` / `output-workflow-bundle` export conditions
 *   first (SPEC rule 12), so `@skein/core` and packages offering a workflow-safe entry use it;
 * - every steps, evaluators and shared-activity file (by `classifyFile`, discovery's file conventions) is
 *   replaced by activity stubs (`stub-loader.cts`).
 * The cache key covers the generated entry module, the stubs, the full bundler options (including whatever
 * the webpack configuration hook sets), tool versions, and the content of every file webpack read except the
 * activity files the stubs stand for (so editing a step's body reuses the bundle).
 * @throws WorkerStartupError carrying webpack's own error text when bundling fails.
 */
export async function bundleWorkflows(project: LoadedProject, settings: BundleSettings = {}): Promise<WorkflowBundleResult> {
  const core = coreWorkflowEntry();
  const cache = settings.cacheDir === false ? null : new BundleCache(path.resolve(settings.cacheDir ?? path.join(project.manifest.root, '.skein', 'bundles')), settings.digests);
  const entrySource = workflowEntrySource(project.workflows, core, settings.traceDir ? { traceDir: settings.traceDir } : {});
  const stubs = Object.fromEntries(
    [...project.activityFiles].sort(([a], [b]) => a.localeCompare(b)).map(([file, acts]) => [
      file,
      acts.map((a): StubSpec => ({ exportName: a.entry.exportName, name: a.facts.name, kind: a.facts.kind, activityOptions: a.facts.activityOptions })),
    ]),
  );
  const stubsText = JSON.stringify(stubs);
  // Generated inputs live at content-named paths, stable across restarts (webpack's cache keys on paths).
  const workDir = cache ? path.join(cache.dir, 'work') : await mkdtemp(path.join(tmpdir(), 'skein-bundle-'));
  await mkdir(workDir, { recursive: true });
  const entryFile = path.join(workDir, `workflows-${digest(entrySource).slice(0, 16)}.js`);
  const stubsFile = path.join(workDir, `stubs-${digest(stubsText).slice(0, 16)}.json`);
  await writeIfChanged(entryFile, entrySource);
  await writeIfChanged(stubsFile, stubsText);
  const loaderOptions: StubLoaderOptions = { stubsFile, stubSpecModule: new URL('./stub-spec.js', import.meta.url).href, coreWorkflowEntry: core };
  const isActivityFile = activityFileTest(project, new Set(project.activityFiles.keys()));
  const skeinConfig = (config: Configuration): Configuration => {
    config.resolve = {
      ...config.resolve,
      modules: [...(config.resolve?.modules ?? ['node_modules']), temporalModulesDir()],
      conditionNames: [...WORKFLOW_BUNDLE_CONDITIONS, 'webpack', 'import', 'module', 'browser', 'default'],
    };
    withTypeScriptSources(config);
    config.module?.rules?.push({
      test: isActivityFile,
      enforce: 'pre',
      use: [{ loader: stubLoaderPath, options: loaderOptions as never }],
    });
    return config;
  };
  const options = {
    workflowsPath: entryFile,
    workflowInterceptorModules: [fileURLToPath(import.meta.resolve('@skein/core/workflow-interceptors'))],
    // zod is large and keeps no per-execution state: evaluate it once per reusable V8 context instead of once
    // per workflow execution (Temporal re-evaluates the other modules for every execution).
    preloadModules: ['zod'],
    webpackConfigHook: skeinConfig,
  };
  const configKey = digest(
    stableText({
      format: 1,
      tools: toolVersions(),
      roots: [project.manifest.root, ...project.manifest.packages.map((p) => p.root)],
      entrySource,
      stubs: stubsText,
      options: { ...options, webpackConfigHook: skeinConfig(probeConfig()) },
    }),
  );
  if (cache) {
    const code = await cache.lookup(configKey);
    if (code !== null) return { code, cache: 'hit' };
  }
  let inputs: { files: string[]; missing: string[] } = { files: [], missing: [] };
  let closeCompiler: ((callback: () => void) => void) | undefined;
  let persisted: Promise<void> | undefined;
  const persist = () => (persisted ??= closeCompiler ? new Promise<void>((resolve) => closeCompiler!(() => resolve())) : Promise.resolve());
  const errors: string[] = [];
  try {
    const bundle = await bundleWorkflowCode({
      ...options,
      logger: {
        log: () => {},
        trace: () => {},
        debug: () => {},
        info: () => {},
        warn: () => {},
        error: (message: string) => errors.push(message),
      },
      webpackConfigHook: (config) => {
        skeinConfig(config);
        if (!cache) return config;
        config.cache = {
          type: 'filesystem',
          cacheDirectory: cache.webpackDir,
          name: 'workflows',
          version: configKey,
          compression: false,
        };
        // Exposed packages live in node_modules and are edited in place: never trust a package version alone.
        config.snapshot = { ...config.snapshot, managedPaths: [], immutablePaths: [] };
        config.plugins = [
          ...(config.plugins ?? []),
          {
            apply(compiler) {
              compiler.hooks.done.tap('skein-bundle-inputs', (stats) => {
                inputs = { files: [...stats.compilation.fileDependencies], missing: [...stats.compilation.missingDependencies] };
              });
              // webpack writes its persistent cache when the compiler closes, and Temporal's bundler waits for
              // that before it returns the bundle (which it has checked by then). Close later instead
              // (`persist`): the worker starts without waiting for the cache.
              const close = compiler.close.bind(compiler);
              compiler.close = (callback) => {
                closeCompiler = (done) => close(() => done());
                callback(null);
              };
            },
          },
        ];
        return config;
      },
    });
    const code = withoutSourcesContent(bundle.code);
    if (!cache) return { code, cache: 'off' };
    // An activity file's bundle form is its stubs (in the configuration key), not its content: editing a step's
    // body leaves the bundle as it is.
    const storeError = await cache.store(configKey, code, { ...inputs, covered: new Set(Object.keys(stubs)) });
    return storeError ? { code, cache: 'miss', persist, storeError } : { code, cache: 'miss', persist };
  } catch (err) {
    const detail = errors.join('\n') || (err as Error).message;
    throw new WorkerStartupError(`Bundling workflow code failed:\n${detail}`, (err as Error).stack);
  } finally {
    if (!cache) await rm(workDir, { recursive: true, force: true });
  }
}

async function writeIfChanged(file: string, text: string): Promise<void> {
  const current = await readFile(file, 'utf8').catch(() => null);
  if (current !== text) await writeFile(file, text);
}
