import { statSync } from 'node:fs';
import { errorCode, nodeFileSystem, type DirEntry, type FileSystem } from '@skein/discovery';
import { sha1, type FileDigests } from './file-digests.js';

/**
 * One answer the file system gave an analysis: the call, its path, and what it returned in a comparable form
 * (a content SHA-1, `kind:size`, a real path, a listing's SHA-1) or `E:<code>` when it threw. `read` answers
 * carry the file's stat from before the read, `[size, mtimeMs, ctimeMs, ino, atMs]`, for `FileDigests`;
 * `readdir` answers the folder's, `[mtimeMs, ctimeMs, ino, atMs]`: adding, removing or renaming an entry
 * changes a folder's mtime and ctime, so an unchanged stat (not written within 2 s before it was listed)
 * stands for an unchanged listing.
 */
export type Observation =
  | [call: 'read', path: string, answer: string, stat?: [number, number, number, number, number]]
  | [call: 'readdir', path: string, answer: string, stat?: [number, number, number, number]]
  | [call: 'stat' | 'realpath', path: string, answer: string];

/** A folder written less than this long (ms) before it was listed may change again without its stat changing. */
const RACY_MS = 2_000;

const failed = (err: unknown) => `E:${errorCode(err)}`;
/**
 * A directory listing's SHA-1, leaving out `.skein/` folders: Skein's own output (caches, traces), created by
 * the start that recorded the listing and skipped by discovery like every dot-folder.
 */
const listing = (entries: DirEntry[]) =>
  sha1(
    entries
      .filter((e) => !(e.name === '.skein' && e.kind === 'directory'))
      .map((e) => `${e.name}\0${e.kind}`)
      .sort()
      .join('\n'),
  );
/** The disk's stat of `p` taken before a read or listing, or undefined when it cannot be had. */
const statBefore = (p: string) => {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
};
const statAnswer = (s: { kind: string; size: number }) => (s.kind === 'directory' ? 'directory' : `${s.kind}:${s.size}`);

/**
 * A `FileSystem` (discovery's interface, over `base`) that records every answer it gives: what an analysis
 * read is exactly what its outcome depends on. `observations()` lists them (each path and call once).
 */
export function recordingFileSystem(base: FileSystem = nodeFileSystem): { fs: FileSystem; observations(): Observation[] } {
  const seen = new Map<string, Observation>();
  const note = (o: Observation) => {
    const key = `${o[0]}\0${o[1]}`;
    if (!seen.has(key)) seen.set(key, o);
  };
  /** Asks `run` for `call` on `p`, notes its answer (`answer` of the value, or the error code), returns or rethrows it. */
  const recorded = <T>(call: Observation[0], p: string, run: () => T, answer: (value: T) => Observation): T => {
    let value: T;
    try {
      value = run();
    } catch (err) {
      note([call, p, failed(err)] as Observation);
      throw err;
    }
    note(answer(value));
    return value;
  };
  const fs: FileSystem = {
    readFile(p) {
      const s = statBefore(p);
      const before: [number, number, number, number, number] | undefined = s && [s.size, s.mtimeMs, s.ctimeMs, s.ino, Date.now()];
      return recorded(
        'read',
        p,
        () => base.readFile(p),
        (text) => {
          const digest = sha1(Buffer.from(text, 'utf8'));
          return before ? ['read', p, digest, before] : ['read', p, digest];
        },
      );
    },
    stat: (p) =>
      recorded(
        'stat',
        p,
        () => base.stat(p),
        (s) => ['stat', p, statAnswer(s)],
      ),
    realpath: (p) =>
      recorded(
        'realpath',
        p,
        () => base.realpath(p),
        (real) => ['realpath', p, real],
      ),
    readdir(p) {
      const s = statBefore(p);
      const before: [number, number, number, number] | undefined = s && [s.mtimeMs, s.ctimeMs, s.ino, Date.now()];
      return recorded(
        'readdir',
        p,
        () => base.readdir(p),
        (entries) => (before ? ['readdir', p, listing(entries), before] : ['readdir', p, listing(entries)]),
      );
    },
  };
  // A file read in full answers for its stat too (same bytes, same kind and size): only the read is kept.
  const observations = () => [...seen.values()].filter((o) => !(o[0] === 'stat' && seen.get(`read\0${o[1]}`)?.[2].startsWith('E:') === false));
  return { fs, observations };
}

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
      return failed(err);
    }
  };
  for (const o of observations) {
    const [call, p, expected] = o;
    if (o[0] === 'readdir' && o[3] && sameFolderStat(p, o[3])) continue;
    let now: string;
    if (call === 'read') {
      if (expected.startsWith('E:')) now = answer(() => (base.readFile(p), 'read'));
      else now = digests.digest(p) ?? answer(() => (base.readFile(p), 'unreadable'));
    } else if (call === 'stat') now = answer(() => statAnswer(base.stat(p)));
    else if (call === 'realpath') now = answer(() => base.realpath(p));
    else now = answer(() => listing(base.readdir(p)));
    if (now !== expected) return false;
  }
  return true;
}

/** Whether a folder's stat is what it was when it was listed (and it had not just been written then). */
function sameFolderStat(p: string, [mtimeMs, ctimeMs, ino, atMs]: [number, number, number, number]): boolean {
  try {
    const s = statSync(p, { throwIfNoEntry: false });
    return s !== undefined && s.isDirectory() && s.mtimeMs === mtimeMs && s.ctimeMs === ctimeMs && s.ino === ino && atMs - Math.max(mtimeMs, ctimeMs) > RACY_MS;
  } catch {
    return false;
  }
}

/** Feeds the content digests a recording saw into `digests`, so the next check only stats those files. */
export function rememberReads(observations: readonly Observation[], digests: FileDigests): void {
  for (const o of observations) {
    if (o[0] !== 'read' || !o[3] || o[2].startsWith('E:')) continue;
    const [size, mtimeMs, ctimeMs, ino, at] = o[3];
    digests.remember(o[1], { size, mtimeMs, ctimeMs, ino }, o[2], at);
  }
}
