/**
 * Webpack loader used only inside the workflow bundle: replaces a steps, evaluators or shared-activity module
 * with activity stubs (one named export per step or evaluator), so the real implementation and its Node-only
 * imports never enter Temporal's deterministic sandbox. Options: `StubLoaderOptions`.
 */
interface StubSpec {
  exportName: string;
  name: string;
  kind: 'step' | 'evaluator';
  activityOptions?: unknown;
}

/** Options passed by the worker: real path → stubs, and the absolute path of `@skein/core`'s workflow entry. */
export interface StubLoaderOptions {
  stubs: Map<string, StubSpec[]>;
  coreWorkflowEntry: string;
}

interface LoaderContext {
  resourcePath: string;
  getOptions(): StubLoaderOptions;
}

function stubLoader(this: LoaderContext): string {
  const { stubs, coreWorkflowEntry } = this.getOptions();
  const specs = stubs.get(this.resourcePath) ?? [];
  const lines = [`import { activityStub } from ${JSON.stringify(coreWorkflowEntry)};`];
  for (const s of specs) {
    const meta = { name: s.name, kind: s.kind, activityOptions: s.activityOptions };
    lines.push(`export const ${s.exportName} = activityStub(${JSON.stringify(meta)});`);
  }
  return lines.join('\n') + '\n';
}

export = stubLoader;
