/**
 * The second step of the `--cache` fast path, loaded only when some files changed since the stored report: derives
 * each changed file's facts and findings again (parsing and walking it alone, under the roles its rules ran under
 * in the stored analysis) and compares their digest with the stored one. When every digest is the same, nothing the
 * report was computed from has changed (the rest of the file system gave the same answers), so the stored report
 * stands; otherwise the caller validates in full.
 */
import * as path from 'node:path';
import { classifyFile, confineFileSystem, createSession, nodeFileSystem, type FileRecord } from '@skein/discovery';
import { FileLinter } from '../engine/file-linter.js';
import { createResolver } from '../graph/resolve.js';
import { fileRules } from '../rules/file-rules.js';
import { recordDigest, type Snapshot } from './file-cache.js';
import { sha1 } from '@skein/discovery/observations';

/**
 * Re-derives `changed` files (each a key of `snapshot.files`) in a session of their own over `root`.
 * @returns the new records of those files when each one's digest is the stored one; `undefined` as soon as one
 * differs (or the file can no longer be read or parsed as before)
 */
export function rederive(root: string, snapshot: Snapshot, changed: readonly string[], maxFileBytes: number): Record<string, FileRecord> | undefined {
  const session = createSession({ fs: confineFileSystem(nodeFileSystem, [root]), maxFileBytes });
  session.ownRoots = [...snapshot.ownRoots];
  const resolver = createResolver(session.fs, () => session.ownRoots, classifyFile);
  const linter = new FileLinter(
    session,
    fileRules,
    (file, specifier) => resolver.resolve(file, specifier),
    (file) => resolver.packageRootOf(file) ?? path.dirname(file),
  );
  linter.recording = true;
  const records = new Map<string, FileRecord>();
  session.store.hook = linter;
  session.store.cache = {
    recordFor(file, text) {
      const hash = sha1(text);
      let record = records.get(file);
      if (record?.hash !== hash) records.set(file, (record = { hash }));
      return record;
    },
  };
  for (const file of changed) {
    const stored = snapshot.files[file];
    if (stored === undefined) return undefined;
    const [digest, roles] = stored;
    if (roles[0] !== undefined) linter.pending.set(file, roles[0] as never);
    if (session.store.load(file).missing) return undefined;
    for (const role of roles.slice(1)) {
      linter.pending.set(file, role as never);
      session.store.revisit(file);
    }
    const record = records.get(file);
    if (record === undefined || recordDigest(record, roles) !== digest) return undefined;
  }
  return Object.fromEntries(records);
}
