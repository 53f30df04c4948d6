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
  /** JSON file: real path of each activity file the worker loaded → its stubs (`Record<string, StubSpec[]>`). */
  stubsFile: string;
  /** URL of this module, whose `stubsFromModule()` serves activity files the stubs file does not list. */
  stubSpecModule: string;
  coreWorkflowEntry: string;
}

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
