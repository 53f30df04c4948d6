import { pathToFileURL } from 'node:url';
import { definitionOf } from '@skein/core';

/** One activity stub to generate: the export binding and the facts compiled into the bundle. */
export interface StubSpec {
  exportName: string;
  name: string;
  kind: 'step' | 'evaluator';
  activityOptions?: unknown;
}

/**
 * Options of the stub loader. Plain data (no functions) so webpack's persistent cache can store the modules
 * the loader produced.
 */
export interface StubLoaderOptions {
  /**
   * JSON file: real path of each activity file the worker loaded → its stubs (`Record<string, StubSpec[]>`). Empty
   * for deferred stubs: the loader waits for the file `deferStubs`' resolver is given.
   */
  stubsFile: string;
  /** URL of this module, whose `stubsFromModule()` serves activity files the stubs file does not list. */
  stubSpecModule: string;
  /**
   * The request a stub imports `activityStub` by: a fixed name that the bundle's configuration aliases to
   * `@skein/core`'s workflow entry (`CORE_WORKFLOW_REQUEST`), never that entry's path. webpack names an ES import's
   * variable after its request, so a path would put the folder of the project's `node_modules` into the bundle's
   * code, and two copies of one project into two build IDs.
   */
  coreWorkflowRequest: string;
}

/** See `StubLoaderOptions.coreWorkflowRequest`. */
export const CORE_WORKFLOW_REQUEST = 'skein-core-workflow-entry';

/**
 * Stubs of an activity file by importing it (worker side): every export carrying a step or evaluator
 * definition. Used for activity files discovery did not register, such as a shared activity overridden by
 * another registration of the same name (one namespace of names, package rule 7): workflow code may still import it.
 */
export async function stubsFromModule(file: string): Promise<StubSpec[]> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const specs: StubSpec[] = [];
  for (const [exportName, value] of Object.entries(mod)) {
    const def = definitionOf(value);
    if (def && def.kind !== 'workflow') {
      specs.push({ exportName, name: def.name, kind: def.kind, activityOptions: def.options?.activityOptions });
    }
  }
  return specs;
}

/**
 * Where the deferred stubs file of this process's run is awaited. A global, not a module variable: the stub loader
 * reaches this module through Node's own loader while the process that bundles may have loaded it through another
 * (a test runner's), and both must see one promise.
 */
const DEFERRED = Symbol.for('skein.bundle.deferredStubsFile');
type DeferredHolder = { [DEFERRED]?: Promise<string> };

/**
 * Defers the stubs of this process's next run (a run whose `StubLoaderOptions.stubsFile` is empty): the stub loader
 * waits (`deferredStubsFile`) until the returned function is called with the stubs file's path. Called with `''`, the
 * loader fails its modules instead (a run abandoned before its stubs were known).
 */
export function deferStubs(): (stubsFile: string) => void {
  let provide!: (stubsFile: string) => void;
  (globalThis as DeferredHolder)[DEFERRED] = new Promise<string>((resolve) => (provide = resolve));
  return provide;
}

/**
 * The stubs file of a run with deferred stubs, once `deferStubs`' resolver has it.
 * @throws Error when no stubs were deferred in this process, or the run was abandoned.
 */
export async function deferredStubsFile(): Promise<string> {
  const file = await (globalThis as DeferredHolder)[DEFERRED];
  if (!file) throw new Error('the stubs of this bundle were never provided');
  return file;
}
