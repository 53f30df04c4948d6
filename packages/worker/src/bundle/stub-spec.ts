/** One activity stub to generate: the export binding and the facts compiled into the bundle. */
export interface StubSpec {
  exportName: string;
  name: string;
  kind: 'step' | 'evaluator';
  activityOptions?: unknown;
}

/** Options of the stub loader: real path of each activity file → its stubs, and `@skein/core`'s workflow entry. */
export interface StubLoaderOptions {
  stubs: Map<string, StubSpec[]>;
  coreWorkflowEntry: string;
}
