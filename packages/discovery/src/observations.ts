/**
 * What a validation read from the file system, as comparable answers (`Observation`), and the check that the file
 * system would give each answer again (`checkObservations`). The validation cache stores a report with the answers
 * it was computed from: when every answer is the same, the report is too. Imports only Node's built-ins, so the
 * `--cache` fast path loads nothing else. Published as `@skein/discovery/observations`: the validator's `--cache`
 * and the worker's startup cache record their outcomes with this one recorder, and a worker that serves a build
 * loads none of the validator for it.
 */
import { hash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import type { DirEntry, FileStat, FileSystem } from './fs.js';

/**
 * One answer, keyed by call and path:
 * - `r` (read): the content's SHA-1, or `E:<code>`; with the file's stat taken before the read
 *   (`size, mtimeMs, ctimeMs, ino`) and when it was read (ms), so an unchanged stat stands for unchanged content;
 * - `d` (readdir): the listing's SHA-1 (names and kinds, `.skein` folders left out), or `E:<code>`; with the
 *   folder's stat (`mtimeMs, ctimeMs, ino`) and when it was listed;
 * - `s` (stat): `file:<size>`, `directory`, `other:<size>` or `E:<code>`;
 * - `p` (realpath): the real path, or `E:<code>`.
 */
export type Observation =
  | [call: 'r', path: string, answer: string, size?: number, mtimeMs?: number, ctimeMs?: number, ino?: number, atMs?: number]
  | [call: 'd', path: string, answer: string, mtimeMs?: number, ctimeMs?: number, ino?: number, atMs?: number]
  | [call: 's' | 'p', path: string, answer: string];

/** A file or folder written less than this long (ms) before it was read may change again without its stat changing. */
const RACY_MS = 2_000;

/** SHA-1 (hex) of a string; identifies content, not a security boundary. */
export function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}

/** A thrown error as an answer: `E:<code>` (`E:UNKNOWN` without one). */
export const errorAnswer = (error: unknown): string => `E:${(error as NodeJS.ErrnoException).code ?? 'UNKNOWN'}`;

/** A listing's SHA-1: names and kinds, sorted; `.skein` folders (Skein's own caches and output) left out. */
export function listingDigest(entries: readonly DirEntry[]): string {
  const parts: string[] = [];
  for (const e of entries) if (!(e.name === '.skein' && e.kind === 'directory')) parts.push(`${e.name}\0${e.kind}`);
  return sha1(parts.sort().join('\n'));
}

/** A stat as an answer: `directory`, or `<kind>:<size>` (`file:120`, `other:0`). */
export const statAnswer = (s: { kind: string; size: number }): string => (s.kind === 'directory' ? 'directory' : `${s.kind}:${s.size}`);

/**
 * `base` recording every answer it gives (each call and path once); `isNode`: `base` is Node's file system
 * (`nodeFileSystem` of @skein/discovery), so its stats are taken here, in full, and reused by the read that follows. `observations()` lists them; a stat of a file
 * that was also read is left out (the read answers for it: same bytes, same size).
 */
export function recordingFileSystem(base: FileSystem, isNode = false): { fs: FileSystem; observations(): Observation[] } {
  const seen = new Map<string, Observation>();
  const note = (key: string, o: Observation) => {
    if (!seen.has(key)) seen.set(key, o);
  };
  // The module store stats each file right before it reads it: that stat (Node's, when `base` is Node's file system)
  // is the one a read observation keeps, instead of a second system call.
  let last: { path: string; stats: Stats } | undefined;
  const statBefore = (p: string): Stats | undefined => {
    if (last?.path === p) return last.stats;
    try {
      return statSync(p);
    } catch {
      return undefined;
    }
  };
  const fs: FileSystem = {
    readFile(p) {
      const s = statBefore(p);
      last = undefined;
      const at = Date.now();
      let text: string;
      try {
        text = base.readFile(p);
      } catch (error) {
        note(`r\0${p}`, ['r', p, errorAnswer(error)]);
        throw error;
      }
      note(`r\0${p}`, s ? ['r', p, sha1(text), s.size, s.mtimeMs, s.ctimeMs, s.ino, at] : ['r', p, sha1(text)]);
      return text;
    },
    stat(p) {
      try {
        let s: FileStat;
        if (isNode) {
          const stats = statSync(p);
          last = { path: p, stats };
          s = { kind: stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other', size: stats.size };
        } else s = base.stat(p);
        note(`s\0${p}`, ['s', p, statAnswer(s)]);
        return s;
      } catch (error) {
        note(`s\0${p}`, ['s', p, errorAnswer(error)]);
        throw error;
      }
    },
    realpath(p) {
      try {
        const real = base.realpath(p);
        note(`p\0${p}`, ['p', p, real]);
        return real;
      } catch (error) {
        note(`p\0${p}`, ['p', p, errorAnswer(error)]);
        throw error;
      }
    },
    readdir(p) {
      const s = statBefore(p);
      last = undefined;
      const at = Date.now();
      try {
        const entries = base.readdir(p);
        note(`d\0${p}`, s ? ['d', p, listingDigest(entries), s.mtimeMs, s.ctimeMs, s.ino, at] : ['d', p, listingDigest(entries)]);
        return entries;
      } catch (error) {
        note(`d\0${p}`, ['d', p, errorAnswer(error)]);
        throw error;
      }
    },
  };
  const observations = () => {
    const out: Observation[] = [];
    for (const o of seen.values()) {
      if (o[0] === 's') {
        const read = seen.get(`r\0${o[1]}`);
        if (read !== undefined && !read[2].startsWith('E:')) continue;
      }
      out.push(o);
    }
    return out;
  };
  return { fs, observations };
}

/** `observations` with each read in `reads` (by path) in place of the one recorded for that path. */
export function withReads(observations: readonly Observation[], reads: readonly Observation[]): Observation[] {
  if (reads.length === 0) return [...observations];
  const now = new Map(reads.map((o) => [o[1], o]));
  return observations.map((o) => (o[0] === 'r' ? (now.get(o[1]) ?? o) : o));
}

/** The current answer to a read of `p` (content SHA-1 or `E:<code>`), with the stat taken before it. */
export function readAnswer(p: string): Observation & { 0: 'r' } {
  let s;
  try {
    s = statSync(p);
  } catch {
    s = undefined;
  }
  const at = Date.now();
  try {
    const digest = sha1(readFileSync(p, 'utf8'));
    return s ? ['r', p, digest, s.size, s.mtimeMs, s.ctimeMs, s.ino, at] : ['r', p, digest];
  } catch (error) {
    return ['r', p, errorAnswer(error)];
  }
}

function nodeListing(p: string): string {
  const entries: DirEntry[] = readdirSync(p, { withFileTypes: true }).map((d) => ({
    name: d.name,
    kind: d.isSymbolicLink() ? 'symlink' : d.isFile() ? 'file' : d.isDirectory() ? 'directory' : 'other',
  }));
  return listingDigest(entries);
}

/** The outcome of `checkObservations`: every answer the same, the same except the content of some files, or not. */
export type ObservationCheck = { same: true; changed: Observation[] } | { same: false };

function nodeStat(p: string): string {
  const s = statSync(p);
  return statAnswer({ kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size });
}

/**
 * Asks the file system (Node's, as `nodeFileSystem` of @skein/discovery reads it) every recorded question again. A file or folder whose
 * stat is unchanged (and was not written within 2 s before it was read) is not read or listed again. Reads whose
 * content changed are collected in `changed` (with the new answer) when `mayChange(path)` says the caller can
 * re-derive what depended on them; any other difference stops the check.
 * `options.contentDigest(path)`: the SHA-1 of a file's content now (null when it cannot be read), asked first for
 * each read that succeeded, instead of the recorded stat: a caller that keeps its own digests (the worker's
 * `FileDigests`, which its startup caches share) answers from them; a different answer is read again here.
 */
export function checkObservations(
  observations: readonly Observation[],
  mayChange: (path: string) => boolean,
  options: { contentDigest?: (path: string) => string | null } = {},
): ObservationCheck {
  const { contentDigest } = options;
  const changed: Observation[] = [];
  const ask = (call: () => string): string => {
    try {
      return call();
    } catch (error) {
      return errorAnswer(error);
    }
  };
  for (const o of observations) {
    const p = o[1];
    if (o[0] === 'r') {
      if (contentDigest !== undefined && !o[2].startsWith('E:')) {
        if (contentDigest(p) === o[2]) continue;
      } else if (o[3] !== undefined && unchangedStat(p, o[3], o[4] as number, o[5] as number, o[6] as number, o[7] as number)) continue;
      const now = readAnswer(p);
      if (now[2] === o[2]) continue;
      if (o[2].startsWith('E:') || now[2].startsWith('E:') || !mayChange(p)) return { same: false };
      changed.push(now);
    } else if (o[0] === 'd') {
      if (o[3] !== undefined && unchangedStat(p, undefined, o[3], o[4] as number, o[5] as number, o[6] as number)) continue;
      if (ask(() => nodeListing(p)) !== o[2]) return { same: false };
    } else if (o[0] === 's') {
      if (ask(() => nodeStat(p)) !== o[2]) return { same: false };
    } else if (ask(() => realpathSync.native(p)) !== o[2]) return { same: false };
  }
  return { same: true, changed };
}

/**
 * Whether `p`'s stat is what was recorded when it was read or listed at `atMs` (ms since the epoch): a file of
 * `size` bytes, or a folder when `size` is undefined; same mtime, ctime and inode; and not written within 2 s
 * before `atMs`. False when it cannot be stat'ed.
 */
export function unchangedStat(p: string, size: number | undefined, mtimeMs: number, ctimeMs: number, ino: number, atMs: number): boolean {
  let s: Stats | undefined;
  try {
    s = statSync(p, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  return (
    s !== undefined &&
    (size === undefined ? s.isDirectory() : s.isFile() && s.size === size) &&
    s.mtimeMs === mtimeMs &&
    s.ctimeMs === ctimeMs &&
    s.ino === ino &&
    atMs - Math.max(mtimeMs, ctimeMs) > RACY_MS
  );
}
