// The package entry: every workflow it exports (directly, as here) is served by a host project's worker.
export { default as greet } from './greet/workflow.js';
