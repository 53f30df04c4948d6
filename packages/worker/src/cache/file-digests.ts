import { readFileSync, statSync, type Stats } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hash, randomBytes } from 'node:crypto';

/** SHA-1 (hex) of a string or buffer; identifies content, not a security boundary. */
export function sha1(data: string | Buffer): string {
  return hash('sha1', data, 'hex');
}

/** What a file's stat said when its content was hashed: `[size, mtimeMs, ctimeMs, ino, sha1, hashedAtMs]`. */
export type DigestEntry = [size: number, mtimeMs: number, ctimeMs: number, ino: number, sha1: string, hashedAtMs: number];

/**
 * A file changed less than this long (ms) before it was hashed may change again within the file system's
 * timestamp granularity (coarse kernel clocks, 1-2 s on some file systems) without its stat changing: its
 * recorded stat is not trusted, its content is hashed again (git's "racily clean" rule).
 */
const RACY_MS = 2_000;

/**
 * Content digests of files, computed at most once per instance (one instance per worker start: a long-lived
 * instance would keep answering a file's first digest after it changed) and remembered across starts in one JSON file
 * (`<project>/.skein/startup/file-digests.json`): a file whose size, mtime, ctime and inode are what they
 * were when it was hashed (and that was not written just before) keeps its recorded SHA-1 without being read;
 * anything else is read and hashed again. The one digest pass the startup caches (workflow bundle, project facts)
 * and the build ID share; what the startup validation read is fed into it.
 */
export class FileDigests {
  private readonly known: Map<string, DigestEntry>;
  private readonly now = new Map<string, string | null>();
  private dirty = false;

  /** @param file where the digests are remembered; `null` keeps them in memory only. */
  constructor(readonly file: string | null) {
    this.known = new Map(file ? readEntries(file) : []);
  }

  /** SHA-1 (hex) of the file's bytes as they are now, or `null` when it cannot be read (missing, a directory). */
  digest(file: string): string | null {
    const seen = this.now.get(file);
    if (seen !== undefined) return seen;
    let value: string | null = null;
    try {
      const before = statSync(file);
      const entry = this.known.get(file);
      if (entry && matches(entry, before)) {
        value = entry[4];
      } else if (before.isFile()) {
        value = sha1(readFileSync(file));
        this.remember(file, before, value);
      }
    } catch {
      value = null;
    }
    this.now.set(file, value);
    return value;
  }

  /**
   * Records what a reader already hashed: `stat` taken before the content was read (so a later write shows as a
   * changed stat), `digest` of the bytes read.
   */
  remember(file: string, stat: Pick<Stats, 'size' | 'mtimeMs' | 'ctimeMs' | 'ino'>, digest: string, hashedAtMs = Date.now()): void {
    this.known.set(file, [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, digest, hashedAtMs]);
    this.dirty = true;
  }

  /** Writes the remembered digests (atomically) when any changed. Errors are returned, never thrown. */
  async save(): Promise<Error | undefined> {
    if (!this.file || !this.dirty) return undefined;
    try {
      await atomicWrite(this.file, JSON.stringify([...this.known]));
      this.dirty = false;
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }
}

function matches(entry: DigestEntry, s: Stats): boolean {
  const [size, mtimeMs, ctimeMs, ino, , hashedAtMs] = entry;
  return s.isFile() && s.size === size && s.mtimeMs === mtimeMs && s.ctimeMs === ctimeMs && s.ino === ino && hashedAtMs - Math.max(mtimeMs, ctimeMs) > RACY_MS;
}

function readEntries(file: string): Array<[string, DigestEntry]> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(parsed)
      ? (parsed as Array<[string, DigestEntry]>).filter((e) => Array.isArray(e) && typeof e[0] === 'string' && Array.isArray(e[1]) && e[1].length === 6)
      : [];
  } catch {
    return [];
  }
}

/**
 * Writes `text` to `file` through a temporary file (named by process and a random part, so writers in one process
 * never share it) and a rename, so readers never see half a file.
 */
export async function atomicWrite(file: string, text: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
