/**
 * The V8 limits of a validation: the worker's startup validation runs `validate()` in a worker thread created with
 * these `resourceLimits` (the one documented way Node offers to size one isolate's heap); the `validate-workflow-package`
 * command, a process of its own, keeps its young generation small with a V8 flag instead (`VALIDATION_V8_FLAGS`).
 *
 * Why the young generation is capped: a validation parses thousands of small files, each AST dying as soon as its one
 * traversal has run, while the per-module facts it keeps grow slowly. V8 sizes the young generation by how much
 * survives each scavenge, so on the 1,000-workflow benchmark it grows to its default ceiling (64 MB on 64-bit Linux):
 * about 50 MB of resident memory holding nothing but garbage. 12 MB (semi-spaces of 4 MB) keeps the peak resident set
 * of the whole command near 135 MB instead of 175 MB (16 MB: about 147 MB), at no measurable CPU cost (scavenges are
 * more frequent, but each copies the same few live objects). See bench/validate.
 */
import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/** `resourceLimits` of a validation thread: young generation at most 12 MB; the old generation keeps Node's default. */
export const VALIDATION_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 12 };

/**
 * The V8 flags of a process that exists to validate (the `validate-workflow-package` command): `--no-turbofan` and
 * `--semi-space-growth-factor=1`.
 *
 * Why: a validation runs each function of @babel/parser and of the analysis over a few thousand small files, once.
 * V8's top tier, TurboFan, recompiles the hottest of them on background threads (about 300 ms of CPU on the
 * benchmark's 4,000 files, a fifth of the whole), and the run is over before the faster code pays that back: with
 * Maglev as the top tier the main thread's CPU is the same (bench/validate, A/B in one run: the command 1.80 → 1.54
 * CPU-s at load 7). `--max-opt=2` on the command line does the same, but not when set at run time;
 * `--battery-saver-mode` and `--efficiency-mode` save less; the others measured are in the bench's header.
 *
 * `--semi-space-growth-factor=1` keeps the young generation at its initial size (the cap of the young generation
 * explained above, for a whole process): a semi-space size set at run time is ignored (V8 sizes the heap when the
 * isolate starts), the growth factor is read each time the young generation would grow. On the benchmark the command's
 * peak RSS is about 100 MB with it (175 MB without), and its CPU no higher than with the 12 MB cap of a thread, whose
 * second isolate the command no longer pays for (about 0.1 CPU-s; bench/validate).
 */
export const VALIDATION_V8_FLAGS: readonly string[] = ['--no-turbofan', '--semi-space-growth-factor=1'];

/**
 * Sets `VALIDATION_V8_FLAGS` for the whole process (V8 flags are process-wide, threads included). Only for a process
 * that does nothing but validate, before it loads the analysis: a long-running process (a worker) keeps TurboFan and
 * its own heap sizing.
 */
export function useValidationV8Flags(): void {
  for (const flag of VALIDATION_V8_FLAGS) setFlagsFromString(flag);
}
