// The package entry: every workflow it exports (directly, as here) is served by a host project's worker.
export { default as welcome } from './welcome/workflow.js';
