import type { Observation } from '@skein/discovery/observations';
import type { FileDigests } from './file-digests.js';

/**
 * The file-system answers a validation report stands on, in the one form of `@skein/discovery/observations` (the
 * recorder of the validator's `--cache`, which hands them to the worker: `onAnswers`): the call (`r` read, `d`
 * readdir, `s` stat, `p` realpath), its path and what it returned in a comparable form (a content SHA-1, `kind:size`,
 * a real path, a listing's SHA-1) or `E:<code>`, with the stat a read or listing was taken with.
 */
export type { Observation };

/** Feeds the content digests a recording saw into `digests`, so the next check only stats those files. */
export function rememberReads(observations: readonly Observation[], digests: FileDigests): void {
  for (const o of observations) {
    if (o[0] !== 'r' || o[3] === undefined || o[2].startsWith('E:')) continue;
    digests.remember(o[1], { size: o[3], mtimeMs: o[4]!, ctimeMs: o[5]!, ino: o[6]! }, o[2], o[7]);
  }
}
