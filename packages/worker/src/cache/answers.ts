import { nodeFileSystem, type FileSystem } from '@skein/discovery';
import { errorAnswer, listingDigest, statAnswer, unchangedStat, type Observation } from '@skein/discovery/observations';
import type { FileDigests } from './file-digests.js';

/**
 * One answer the file system gave an analysis, in the one form of `@skein/discovery/observations` (the recorder of
 * the validator's `--cache` and of the worker's startup cache): the call (`r` read, `d` readdir, `s`
 * stat, `p` realpath), its path and what it returned in a comparable form (a content SHA-1, `kind:size`, a real path,
 * a listing's SHA-1) or `E:<code>`. A read carries the file's stat from before it (`size, mtimeMs, ctimeMs, ino`) and
 * when it was read (ms), for `FileDigests`; a listing carries the folder's (`mtimeMs, ctimeMs, ino`, then when):
 * adding, removing or renaming an entry changes a folder's mtime and ctime, so an unchanged stat (not written within
 * 2 s before it was listed) stands for an unchanged listing.
 */
export type { Observation };

/**
 * Whether the file system would give every recorded answer again: same file contents (by `digests`, so an
 * unchanged file is only stat'ed), same kinds and sizes, same real paths, same directory listings, same errors.
 * The first difference stops the check.
 */
export function sameAnswers(observations: readonly Observation[], digests: FileDigests, base: FileSystem = nodeFileSystem): boolean {
  const answer = (call: () => string): string => {
    try {
      return call();
    } catch (err) {
      return errorAnswer(err);
    }
  };
  for (const o of observations) {
    const [call, p, expected] = o;
    if (call === 'd' && o[3] !== undefined && unchangedStat(p, undefined, o[3], o[4]!, o[5]!, o[6]!)) continue;
    let now: string;
    if (call === 'r') {
      if (expected.startsWith('E:')) now = answer(() => (base.readFile(p), 'read'));
      else now = digests.digest(p) ?? answer(() => (base.readFile(p), 'unreadable'));
    } else if (call === 's') now = answer(() => statAnswer(base.stat(p)));
    else if (call === 'p') now = answer(() => base.realpath(p));
    else now = answer(() => listingDigest(base.readdir(p)));
    if (now !== expected) return false;
  }
  return true;
}

/** Feeds the content digests a recording saw into `digests`, so the next check only stats those files. */
export function rememberReads(observations: readonly Observation[], digests: FileDigests): void {
  for (const o of observations) {
    if (o[0] !== 'r' || o[3] === undefined || o[2].startsWith('E:')) continue;
    digests.remember(o[1], { size: o[3], mtimeMs: o[4]!, ctimeMs: o[5]!, ino: o[6]! }, o[2], o[7]);
  }
}
