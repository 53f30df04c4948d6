import { readFileSync } from 'node:fs';
import path from 'node:path';
import { atomicWrite, type FileDigests } from './file-digests.js';

/** One cached fact and the files (with their SHA-1) it was computed from. */
export interface FactsEntry<T> {
  /** What the fact is about, as text (e.g. the discovered manifest entry as JSON). */
  subject: string;
  facts: T;
  files: Array<[file: string, sha1: string]>;
}

/** The stored form: one table of files, each entry naming its files by index. */
interface FactsFile<T> {
  key: string;
  files: Array<[string, string]>;
  entries: Array<{ subject: string; facts: T; files: number[] }>;
}

/**
 * Facts that only running a module can tell (a workflow's schemas and aliases, a step's activity options),
 * remembered across starts in `<cacheDir>/project-facts.json`: an entry is reused while the code that
 * computed it (`key`) is the same and every file it was computed from has the same content (`FileDigests`).
 * Never throws on read: an unreadable file is an empty cache.
 */
export class FactsCache<T> {
  constructor(
    readonly dir: string,
    private readonly digests: FileDigests,
  ) {}

  private get file(): string {
    return path.join(this.dir, 'project-facts.json');
  }

  /** The stored entries for `key` whose files are all unchanged, by subject. */
  valid(key: string): Map<string, FactsEntry<T>> {
    const out = new Map<string, FactsEntry<T>>();
    let stored: FactsFile<T>;
    try {
      stored = JSON.parse(readFileSync(this.file, 'utf8')) as FactsFile<T>;
    } catch {
      return out;
    }
    if (stored?.key !== key || !Array.isArray(stored.files) || !Array.isArray(stored.entries)) return out;
    const same = stored.files.map(([file, sha1]) => this.digests.digest(file) === sha1);
    for (const entry of stored.entries) {
      if (entry.files.every((i) => same[i] === true)) {
        out.set(entry.subject, { subject: entry.subject, facts: entry.facts, files: entry.files.map((i) => stored.files[i]!) });
      }
    }
    return out;
  }

  /** Replaces the stored entries with `entries` (atomically). Errors are returned, never thrown. */
  async store(key: string, entries: Iterable<FactsEntry<T>>): Promise<Error | undefined> {
    const index = new Map<string, number>();
    const files: Array<[string, string]> = [];
    const out: FactsFile<T> = { key, files, entries: [] };
    for (const entry of entries) {
      const ids = entry.files.map(([file, sha1]) => {
        const id = `${file}\0${sha1}`;
        let i = index.get(id);
        if (i === undefined) {
          index.set(id, (i = files.length));
          files.push([file, sha1]);
        }
        return i;
      });
      out.entries.push({ subject: entry.subject, facts: entry.facts, files: ids });
    }
    try {
      await atomicWrite(this.file, JSON.stringify(out));
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }
}
