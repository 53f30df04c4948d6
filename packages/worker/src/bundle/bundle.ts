import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/** webpack's configuration type, as Temporal's bundler hands it to `webpackConfigHook`. */
type Configuration = Parameters<NonNullable<Parameters<typeof bundleWorkflowCode>[0]['webpackConfigHook']>>[0];
import { WORKFLOW_BUNDLE_CONDITIONS } from '@skein/core';
import { WorkerStartupError } from '../errors.js';
import type { LoadedProject } from '../load.js';
import { workflowEntrySource } from './entry.js';
import { classifyFile } from '@skein/discovery';
import { stubsFromModule, type StubLoaderOptions, type StubSpec } from './stub-spec.js';

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
export function activityFileTest(project: LoadedProject, stubs: Map<string, unknown>): (file: string) => boolean {
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
 * Bundles every workflow of the project once, with Temporal's bundler (webpack):
 * - bare imports resolve through the `skein-workflow-bundle` / `output-workflow-bundle` export conditions
 *   first (SPEC rule 12), so `@skein/core` and packages offering a workflow-safe entry use it;
 * - every steps, evaluators and shared-activity file (by `classifyFile`, discovery's file conventions) is
 *   replaced by activity stubs (`stub-loader.cts`).
 * @throws WorkerStartupError carrying webpack's own error text when bundling fails.
 */
export async function bundleWorkflows(project: LoadedProject, settings: { traceDir?: string } = {}): Promise<WorkflowBundleWithSourceMap> {
  const core = coreWorkflowEntry();
  const dir = await mkdtemp(path.join(tmpdir(), 'skein-bundle-'));
  const entryFile = path.join(dir, 'workflows.js');
  await writeFile(entryFile, workflowEntrySource(project.workflows, core, settings));
  const stubs = new Map<string, StubSpec[]>(
    [...project.activityFiles].map(([file, acts]) => [
      file,
      acts.map((a) => ({
        exportName: a.entry.exportName,
        name: a.def.name,
        kind: a.def.kind,
        activityOptions: a.def.options?.activityOptions,
      })),
    ]),
  );
  const loaderOptions: StubLoaderOptions = {
    stubsFor: async (file) => stubs.get(file) ?? stubsFromModule(file),
    coreWorkflowEntry: core,
  };
  const isActivityFile = activityFileTest(project, stubs);
  const errors: string[] = [];
  try {
    return await bundleWorkflowCode({
      workflowsPath: entryFile,
      workflowInterceptorModules: [fileURLToPath(import.meta.resolve('@skein/core/workflow-interceptors'))],
      // zod is large and keeps no per-execution state: evaluate it once per reusable V8 context instead of once
      // per workflow execution (Temporal re-evaluates the other modules for every execution).
      preloadModules: ['zod'],
      logger: {
        log: () => {},
        trace: () => {},
        debug: () => {},
        info: () => {},
        warn: () => {},
        error: (message: string) => errors.push(message),
      },
      webpackConfigHook: (config) => {
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
      },
    });
  } catch (err) {
    const detail = errors.join('\n') || (err as Error).message;
    throw new WorkerStartupError(`Bundling workflow code failed:\n${detail}`, (err as Error).stack);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
