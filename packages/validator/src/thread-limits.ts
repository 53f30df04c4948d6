/**
 * The V8 limits of a validation thread: the `validate-workflow-package` command and the worker's startup validation
 * both run `validate()` in a worker thread created with these `resourceLimits` (the one documented way Node offers to
 * size one isolate's heap; a V8 flag would need the user's command line).
 *
 * Why the young generation is capped: a validation parses thousands of small files, each AST dying as soon as its one
 * traversal has run, while the per-module facts it keeps grow slowly. V8 sizes the young generation by how much
 * survives each scavenge, so on the 1,000-workflow benchmark it grows to its default ceiling (64 MB on 64-bit Linux):
 * about 50 MB of resident memory holding nothing but garbage. 12 MB (semi-spaces of 4 MB) keeps the peak resident set
 * of the whole command near 135 MB instead of 175 MB (16 MB: about 147 MB), at no measurable CPU cost (scavenges are
 * more frequent, but each copies the same few live objects). See bench/validate.
 */
import type { ResourceLimits } from 'node:worker_threads';

/** `resourceLimits` of a validation thread: young generation at most 12 MB; the old generation keeps Node's default. */
export const VALIDATION_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 12 };
