/**
 * `@skein/validator/cached`: `validateWithCache` (the `--cache` paths) for a caller that may not need the analysis,
 * such as the worker's startup check: this entry loads only the cache's light modules, and the analysis is imported
 * when a changed file has to be parsed (`validate-cached.ts`).
 */
export { validateWithCache, type CachePath } from './validate-cached.js';
export { ValidationInputError } from './errors.js';
export { VALIDATION_THREAD_LIMITS } from './thread-limits.js';
