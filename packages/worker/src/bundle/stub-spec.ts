import { pathToFileURL } from 'node:url';
import { definitionOf } from '@skein/core';

/** One activity stub to generate: the export binding and the facts compiled into the bundle. */
export interface StubSpec {
  exportName: string;
  name: string;
  kind: 'step' | 'evaluator';
  activityOptions?: unknown;
}

/** Options of the stub loader: the stubs of an activity file, and `@skein/core`'s workflow entry. */
export interface StubLoaderOptions {
  /** Stubs of the activity file at this real path. */
  stubsFor(file: string): Promise<StubSpec[]>;
  coreWorkflowEntry: string;
}

/**
 * Stubs of an activity file by importing it (worker side): every export carrying a step or evaluator
 * definition. Used for activity files discovery did not register, such as a shared activity overridden by
 * another registration of the same name (SPEC rule 7): workflow code may still import it.
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
