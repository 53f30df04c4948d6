import v8 from 'node:v8';
import vm from 'node:vm';

/** The process's own V8 flags: `process.execArgv` and the words of `NODE_OPTIONS`. */
const ownFlags = (): string[] => [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)];

/**
 * Shrinks this process's young generation to its starting size and keeps it there from now on, for a long-running
 * Skein process (`skein api` once it listens, `skein worker` once it has served a while):
 * `--semi-space-growth-factor=1` (a V8 flag read at every scavenge, so it works after start, unlike
 * `--max-semi-space-size`), then one full, memory-reducing collection (V8's `gc` with the `last-resort` flavour,
 * reached by turning on `--expose-gc` for one new context), which is what shrinks semi-spaces that had already grown
 * (a pause of tens of ms, once). Without it V8 grows the semi-spaces towards 64 MB each (on a machine with 16 GB or
 * more) under a steady stream of short-lived garbage, and keeps them. Measured:
 * - the API, 450 `POST /workflow/run` at 8 in flight: heap committed 50 -> 200 MB and resident set 166 -> 249 MB
 *   right after a full collection while the live heap stayed at 42-44 MB; with 8 MB semi-spaces 141 -> 167 MB;
 * - a worker from a build on the 1,000-workflow benchmark: RSS after 300 runs 354 MB without, 322 MB with the flag
 *   set from the start (main heap 98 -> 78 MB); set from the start it slows the first run, hence "once it has served".
 *
 * Process-wide (a worker's workflow thread stops growing its young generation too): call it only in a process of
 * Skein's own. A `--semi-space-growth-factor`, `--max-semi-space-size` or `--min-semi-space-size` among
 * `processFlags` wins: then nothing is done. Contexts created later get no `gc` global.
 * @param processFlags the process's flags (default: `process.execArgv` and the words of `NODE_OPTIONS`).
 * @returns whether it was done; never throws.
 */
export function holdYoungGeneration(processFlags: readonly string[] = ownFlags()): boolean {
  if (processFlags.some((f) => /^--(semi[-_]space[-_]growth[-_]factor|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size)/.test(f))) return false;
  try {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
  } catch {
    return false;
  }
  return reduceHeap();
}

/**
 * One full, memory-reducing collection of this thread's heap (V8's `gc` with the `last-resort` flavour, reached by
 * turning on `--expose-gc` for one new context): it compacts the heap and returns the pages it frees to the system,
 * which an ordinary collection keeps committed. A pause of tens to hundreds of ms. Measured: after importing the
 * 1,000-workflow benchmark's modules, resident set 368 -> 188 MB (heap committed 286 -> 106 MB), where a plain major
 * collection left it at 368 MB. Contexts created later get no `gc` global.
 * @returns whether it ran; never throws.
 */
export function reduceHeap(): boolean {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
    v8.setFlagsFromString('--no-expose-gc');
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    return true;
  } catch {
    return false;
  }
}
