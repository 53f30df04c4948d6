/**
 * Webpack loader used only inside the workflow bundle: replaces a steps, evaluators or shared-activity module
 * with activity stubs (one named export per step or evaluator), so the real implementation and its Node-only
 * imports never enter Temporal's deterministic sandbox. Options: `StubLoaderOptions` (./stub-spec.ts).
 * Written with erasable TypeScript only, so Node can load the source file as well as the compiled one.
 */
import type { StubLoaderOptions, StubSpec } from './stub-spec.js';

const { readFileSync } = require('node:fs') as typeof import('node:fs');

interface LoaderContext {
  resourcePath: string;
  getOptions(): StubLoaderOptions;
  async(): (err: Error | null, source?: string) => void;
}

function generate(specs: StubSpec[], coreWorkflowRequest: string): string {
  const lines = [`import { activityStub } from ${JSON.stringify(coreWorkflowRequest)};`];
  for (const s of specs) {
    const meta = { name: s.name, kind: s.kind, activityOptions: s.activityOptions };
    lines.push(`export const ${s.exportName} = activityStub(${JSON.stringify(meta)});`);
  }
  return lines.join('\n') + '\n';
}

/** Parsed stubs files, by path (one per bundle configuration; read once per process). */
const stubFiles = new Map<string, Record<string, StubSpec[]>>();

async function stubsFor(options: StubLoaderOptions, file: string): Promise<StubSpec[]> {
  const spec = () => import(options.stubSpecModule) as Promise<typeof import('./stub-spec.js')>;
  // Deferred stubs (an empty path): webpack compiles the rest of the graph while the worker still imports the steps.
  const stubsFile = options.stubsFile === '' ? await (await spec()).deferredStubsFile() : options.stubsFile;
  let known = stubFiles.get(stubsFile);
  if (!known) {
    known = JSON.parse(readFileSync(stubsFile, 'utf8')) as Record<string, StubSpec[]>;
    stubFiles.set(stubsFile, known);
  }
  return known[file] ?? (await spec()).stubsFromModule(file);
}

function stubLoader(this: LoaderContext): void {
  const done = this.async();
  const options = this.getOptions();
  stubsFor(options, this.resourcePath).then(
    (specs) => done(null, generate(specs, options.coreWorkflowRequest)),
    (err: Error) => done(err),
  );
}

module.exports = stubLoader;
