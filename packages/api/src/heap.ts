import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Keeps the API process's young generation at its starting size: `--semi-space-growth-factor=1` (a V8 flag read at
 * every scavenge, so it applies after start), then one full, memory-reducing collection (V8's `gc` with the
 * `last-resort` flavour, reached by turning on `--expose-gc` for one new context), which shrinks semi-spaces that
 * had already grown. Without it V8 grows the semi-spaces of a long-running API towards 64 MB each (on a machine
 * with 16 GB or more) under the steady garbage of requests and engine calls, and keeps them: measured over 450
 * `POST /workflow/run` at 8 in flight, the API's heap committed 50 -> 200 MB and its resident set 166 -> 249 MB
 * right after a full collection while the live heap stayed at 42-44 MB; with 8 MB semi-spaces 141 -> 167 MB.
 * Process-wide: call it only in a process that is the API's own (`skein api`), once it listens. A
 * `--semi-space-growth-factor`, `--max-semi-space-size` or `--min-semi-space-size` of the process's own wins: then
 * nothing is done.
 * @param processFlags the process's flags: `process.execArgv` and the words of `NODE_OPTIONS`.
 * @returns whether it was done; never throws.
 */
export function holdYoungGeneration(
  processFlags: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)],
): boolean {
  if (processFlags.some((f) => /^--(semi[-_]space[-_]growth[-_]factor|max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size)/.test(f))) return false;
  try {
    v8.setFlagsFromString('--semi-space-growth-factor=1');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
    v8.setFlagsFromString('--no-expose-gc');
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    return true;
  } catch {
    return false;
  }
}
