/**
 * One webpack run of the workflow bundle, from plain data (`WebpackRun`), so that the worker and a background
 * process priming webpack's persistent cache (`prime-main.ts`) build exactly the same thing.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleOptions } from '@temporalio/worker';
// The bundler's own module, not the package's index: the index also loads the rest of the SDK's worker (connection,
// replay, runtime) and the protobuf definitions they use, which a process that only bundles never needs (the
// bundling process loaded in 0.37 s instead of 0.98 s, with 27 MB less resident memory).
import { bundleWorkflowCode } from '@temporalio/worker/lib/workflow/bundler.js';
import { BUNDLE_CONDITION_NAMES } from '@skein/core';
import { classifyFile } from '@skein/discovery';
import type { LoadedProject } from '../host/load.js';
import { LocationFreeModuleIds } from './module-ids.js';
import { tracingInterceptorsModule } from '../interceptors/workflow-tracing.js';
import type { StubLoaderOptions } from './stub-spec.js';

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
  return activityFileTestFor([project.manifest.root, ...project.manifest.packages.map((p) => p.root)], stubs);
}

/** `activityFileTest` from the project's roots (the project first, then its exposed packages). */
export function activityFileTestFor(roots: readonly string[], stubs: { has(file: string): boolean }): (file: string) => boolean {
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

/** Temporal's webpack configuration object, as its configuration hook receives it. */
type Configuration = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];

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
 * Node flags of the processes that run webpack (the bundling process, `webpack-process.ts`, and the one priming its
 * persistent cache, `prime.ts`): semi-spaces of at most 8 MB. V8 otherwise grows them towards 64 MB each under
 * webpack's stream of short-lived objects, and keeps them to the end of the run, when the whole bundle and its
 * source map are assembled and the process is at its peak. Measured on the 1,000-workflow project (`skein build`,
 * cold, 5 runs each, medians): the bundling process's peak resident set 635 -> 557 MB, the build's (both processes)
 * 827 -> 763 MB, wall time 9.7 -> 9.3 s. Smaller semi-spaces save less: more objects survive into the old
 * generation, and the build's peak was 852 MB at 2 MB and 791 MB at 4 MB (3 runs each).
 */
export const BUNDLING_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

/** Everything one webpack run of the workflow bundle needs, as plain (JSON) data. */
export interface WebpackRun {
  /** The generated entry module (`entry.ts`). */
  entryFile: string;
  loaderOptions: StubLoaderOptions;
  /** Absolute path of `@skein/core`'s workflow entry, which the stubs' request (`coreWorkflowRequest`) is aliased to. */
  coreWorkflowEntry: string;
  /** The project's root, then its exposed packages' roots. */
  roots: string[];
  /** Real paths of the activity files the stubs stand for. */
  activityFiles: string[];
  /** webpack's persistent file-system cache: its directory and version (the bundle cache's configuration key without the generated entry). */
  persistent?: { dir: string; version: string };
}

/** The bundler options of a run, with Skein's webpack settings as the configuration hook (`skeinConfig`). */
export function bundlerOptions(run: WebpackRun) {
  const isActivityFile = activityFileTestFor(run.roots, new Set(run.activityFiles));
  const skeinConfig = (config: Configuration): Configuration => {
    config.resolve = {
      ...config.resolve,
      modules: [...(config.resolve?.modules ?? ['node_modules']), temporalModulesDir()],
      conditionNames: [...BUNDLE_CONDITION_NAMES],
      // The stubs import `@skein/core` by a fixed name, not by its path (see `StubLoaderOptions.coreWorkflowRequest`).
      alias: { ...(config.resolve?.alias as Record<string, string | false> | undefined), [`${run.loaderOptions.coreWorkflowRequest}$`]: run.coreWorkflowEntry },
    };
    withTypeScriptSources(config);
    // A compact bundle (no path comments, short module ids; the inline source map still names every file): the
    // worker compiles it twice at each start (Temporal's debugger preload and the workflow thread), and a
    // 1,000-workflow project's bundle is half path comments and path-long module ids otherwise.
    config.output = { ...config.output, pathinfo: false };
    // The inline source map keeps its mappings and names every file, for stack traces of workflow code, but not
    // `sourcesContent`: a second copy of every source file (about a third of a 1,000-workflow bundle, and memory in
    // the workflow thread's source-map consumer). Embedding it also cost webpack about a second on 4,000 modules.
    config.devtool = 'inline-nosources-source-map';
    // Module ids hash each module's name without its location (`LocationFreeModuleIds`), so that the bundle (and
    // the build ID) does not depend on the project's folder, the folder of the generated entry (the bundle cache,
    // or a temporary folder without it), where node_modules really sit, or the process's working folder.
    config.optimization = { ...config.optimization, moduleIds: false };
    config.plugins = [...(config.plugins ?? []), new LocationFreeModuleIds({ roots: run.roots, workDir: path.dirname(run.entryFile) })];
    config.context = run.roots[0];
    config.module?.rules?.push({
      test: isActivityFile,
      enforce: 'pre',
      use: [{ loader: stubLoaderPath, options: run.loaderOptions as never }],
    });
    return config;
  };
  return {
    workflowsPath: run.entryFile,
    // OpenTelemetry's interceptors, switched on per run by the worker's setting (`workflow-tracing.ts`), run first
    // (outermost), so Skein's run inside the workflow's span. Always bundled: one bundle serves with tracing on or off.
    workflowInterceptorModules: [tracingInterceptorsModule(), fileURLToPath(import.meta.resolve('@skein/core/workflow-interceptors'))],
    // No `preloadModules`: Temporal evaluates a preloaded module once per V8 context and shares it, frozen, among
    // every execution. zod is not shareable so: it keeps a global registry of schema metadata, and sets its global
    // configuration when the first schema is made (on a frozen one that schema throws "Cannot add property
    // localeError"), so each execution evaluates its own zod. A bare `preloadModules: ['zod']` did nothing: zod
    // declares itself free of side effects, and webpack dropped the unused require.
    webpackConfigHook: skeinConfig,
  };
}

/** The bundler options as the cache key sees them: the configuration hook replaced by what it produces. */
export function keyedBundlerOptions(run: WebpackRun): object {
  const options = bundlerOptions(run);
  return { ...options, webpackConfigHook: options.webpackConfigHook(probeConfig()) };
}

/** A webpack plugin of Temporal's webpack configuration. */
type WebpackPlugin = NonNullable<Configuration['plugins']>[number];

/** enhanced-resolve's caching file system, as webpack's own Node environment wraps its input file system in it. */
type CachedInputFileSystemClass = new (fs: unknown, durationMs: number) => unknown;

/**
 * enhanced-resolve's `CachedInputFileSystem`, loaded from the webpack that Temporal's bundler runs (webpack's own
 * dependency, so the version webpack expects).
 */
function cachedInputFileSystemClass(): CachedInputFileSystemClass {
  const fromTemporal = createRequire(createRequire(import.meta.url).resolve('@temporalio/worker'));
  const fromWebpack = createRequire(fromTemporal.resolve('webpack'));
  return (fromWebpack('enhanced-resolve') as { CachedInputFileSystem: CachedInputFileSystemClass }).CachedInputFileSystem;
}

/** The file-system calls webpack's input file system makes (enhanced-resolve's and webpack's own). */
const INPUT_FS_METHODS = ['stat', 'lstat', 'readFile', 'readlink', 'realpath', 'readdir'] as const;

/**
 * An input file system that asks Temporal's union (its in-memory volume, then the disk) only about the paths the
 * volume holds (the generated entry modules, `entries`) and the disk directly about every other path. `readdir`
 * always goes through the union, which filters listings to `.js`/`.ts` files. Measured on the 1,000-workflow
 * project: the volume's failed lookups (an error object with its stack trace for each of ~20,000 paths, plus a
 * `getuid` call per lookup) took 1.3 of webpack's 11.5 CPU-s.
 */
function volumeOnlyForEntries(union: Record<string, unknown>, entries: ReadonlySet<string>): Record<string, unknown> {
  const disk = fs as unknown as Record<string, unknown>;
  const routed: Record<string, unknown> = { ...union };
  for (const method of INPUT_FS_METHODS) {
    for (const name of [method, `${method}Sync`]) {
      const viaUnion = union[name] as ((...args: unknown[]) => unknown) | undefined;
      const viaDisk = disk[name] as ((...args: unknown[]) => unknown) | undefined;
      if (!viaUnion || !viaDisk) continue;
      routed[name] =
        method === 'readdir'
          ? viaUnion.bind(union)
          : (file: unknown, ...rest: unknown[]) =>
              typeof file === 'string' && !entries.has(file) ? viaDisk(file, ...rest) : viaUnion.call(union, file, ...rest);
    }
  }
  return routed;
}

/**
 * webpack settings that change how fast a run is, never what it produces:
 * - Temporal's bundler replaces webpack's input file system by a union of an in-memory volume (its generated entry)
 *   and the real one, without webpack's usual cache in front: every `stat`, `readlink` and `readFile` of every
 *   resolution went to the volume first (which builds an error object, stack trace included, for each path it does
 *   not hold) and then to the disk, again for every module that asks. At `beforeRun`, once the bundler has set the
 *   union and before any resolver or module reads through it, the union is asked only about the entry modules
 *   (`volumeOnlyForEntries`), and the whole is wrapped in the caching file system webpack itself uses for a
 *   one-shot build (`NodeEnvironmentPlugin`): a run reads each path once.
 * - A run without errors does not render webpack's statistics to text (the bundler logs that text, and Skein's
 *   logger drops it: grouping and printing 4,000 modules' statistics cost about a second on a 1,000-workflow project).
 * `entries`: the configuration's entry modules (the paths Temporal's volume holds).
 */
export function fastRunPlugin(entries: readonly string[]): WebpackPlugin {
  const CachedInputFileSystem = cachedInputFileSystemClass();
  const inVolume = new Set(entries);
  const plugin: WebpackPlugin = {
    apply(compiler) {
      compiler.hooks.beforeRun.tap('skein-fast-run', (c) => {
        // Without known entries (a configuration shape this code does not know), every path asks the union.
        const input = inVolume.size > 0 ? volumeOnlyForEntries(c.inputFileSystem as unknown as Record<string, unknown>, inVolume) : c.inputFileSystem;
        c.inputFileSystem = new CachedInputFileSystem(input, 60_000) as typeof c.inputFileSystem;
      });
      compiler.hooks.done.tap('skein-fast-run', (stats) => {
        if (!stats.hasErrors()) stats.toString = () => '';
      });
    },
  };
  return plugin;
}

/** The entry modules of a webpack configuration, as absolute paths (Temporal's bundler gives one, as an array). */
function entryModules(config: Configuration): string[] {
  const entry = config.entry;
  if (typeof entry === 'string') return [entry];
  if (Array.isArray(entry)) return entry.filter((e): e is string => typeof e === 'string');
  return [];
}

/** A finished webpack run: the bundle, the files it read, and (with a persistent cache) how to write that cache. */
export interface WebpackResult {
  code: string;
  /** Every file webpack read, and every path whose absence decided a resolution. */
  inputs: { files: string[]; missing: string[] };
  /** The bundle's modules (`total`) and how many of them webpack built (`built`): the rest came from its persistent cache. */
  modules: { built: number; total: number };
  /** With `run.persistent`: closes the compiler, which writes webpack's persistent cache; resolves when written. */
  close?: () => Promise<void>;
}

/**
 * Runs Temporal's bundler (webpack) once. With `run.persistent`, webpack reads and fills its persistent cache,
 * and the compiler is kept open until `close()` (Temporal's bundler would otherwise wait for the cache write
 * before returning the bundle).
 * @throws Error whose message is webpack's own error text when bundling fails.
 */
export async function runWebpack(run: WebpackRun): Promise<WebpackResult> {
  const options = bundlerOptions(run);
  let inputs: WebpackResult['inputs'] = { files: [], missing: [] };
  const modules: WebpackResult['modules'] = { built: 0, total: 0 };
  let closeCompiler: ((done: () => void) => void) | undefined;
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
        options.webpackConfigHook(config);
        if (run.persistent) {
          config.cache = { type: 'filesystem', cacheDirectory: run.persistent.dir, name: 'workflows', version: run.persistent.version, compression: false };
          // Exposed packages live in node_modules and are edited in place: never trust a package version alone.
          config.snapshot = { ...config.snapshot, managedPaths: [], immutablePaths: [] };
        }
        if (!run.persistent) {
          // A one-shot run: webpack's in-memory cache (development mode's default) only serves a second compilation.
          config.cache = false;
        }
        if (run.loaderOptions.stubsFile === '') {
          // Deferred stubs: every activity module waits in its loader until the stubs arrive. webpack builds at most
          // `parallelism` modules at a time (100 by default), so waiting modules would soon hold every slot and stop
          // the rest of the graph. The order modules are built in does not change the bundle.
          config.parallelism = 1_000_000;
        }
        config.plugins = [
          ...(config.plugins ?? []),
          fastRunPlugin(entryModules(config)),
          {
            apply(compiler) {
              compiler.hooks.compilation.tap('skein-bundle-inputs', (compilation) => {
                compilation.hooks.buildModule.tap('skein-bundle-inputs', () => void modules.built++);
              });
              compiler.hooks.done.tap('skein-bundle-inputs', (stats) => {
                inputs = { files: [...stats.compilation.fileDependencies], missing: [...stats.compilation.missingDependencies] };
                modules.total = stats.compilation.modules.size;
              });
              if (!run.persistent) return;
              // webpack writes its persistent cache when the compiler closes: close when asked instead.
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
    let closed: Promise<void> | undefined;
    const close = closeCompiler ? () => (closed ??= new Promise<void>((resolve) => closeCompiler!(resolve))) : undefined;
    return close ? { code: bundle.code, inputs, modules, close } : { code: bundle.code, inputs, modules };
  } catch (err) {
    const detail = errors.join('\n') || (err as Error).message;
    throw Object.assign(new Error(detail), { stack: (err as Error).stack });
  }
}
