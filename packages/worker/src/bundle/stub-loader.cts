/**
 * Webpack loader used only inside the workflow bundle: replaces a steps, evaluators or shared-activity module
 * with activity stubs (one named export per step or evaluator), so the real implementation and its Node-only
 * imports never enter Temporal's deterministic sandbox. Options: `StubLoaderOptions` (./stub-spec.ts).
 * Written with erasable TypeScript only, so Node can load the source file as well as the compiled one.
 */
import type { StubLoaderOptions } from './stub-spec.js';

function stubLoader(this: { resourcePath: string; getOptions(): StubLoaderOptions }): string {
  const { stubs, coreWorkflowEntry } = this.getOptions();
  const specs = stubs.get(this.resourcePath) ?? [];
  const lines = [`import { activityStub } from ${JSON.stringify(coreWorkflowEntry)};`];
  for (const s of specs) {
    const meta = { name: s.name, kind: s.kind, activityOptions: s.activityOptions };
    lines.push(`export const ${s.exportName} = activityStub(${JSON.stringify(meta)});`);
  }
  return lines.join('\n') + '\n';
}

module.exports = stubLoader;
