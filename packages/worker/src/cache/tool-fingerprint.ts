import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha1, type FileDigests } from './file-digests.js';

/**
 * A fingerprint of the code that produced a cached result: for each package given by name, the content of every
 * JavaScript/TypeScript module in the folder of its resolved entry (`dist/`, or `src/` under a TypeScript
 * runner), so Skein's own development invalidates caches without a version bump; and the versions of the
 * `dependencies` named (resolved from the first package). SHA-1, hex.
 */
export function toolFingerprint(packages: readonly string[], dependencies: readonly string[], digests: FileDigests): string {
  const parts: string[] = [process.version];
  for (const name of packages) {
    const dir = path.dirname(fileURLToPath(import.meta.resolve(name)));
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.(c|m)?[jt]s$/.test(f) && !/\.d\.[cm]?ts$/.test(f)).sort();
    parts.push(`${name}:${sha1(files.map((f) => `${f}:${digests.digest(path.join(dir, f))}`).join('\n'))}`);
  }
  const from = createRequire(fileURLToPath(import.meta.resolve(packages[0]!)));
  for (const dep of dependencies) {
    let version = 'unknown';
    try {
      version = (JSON.parse(readFileSync(from.resolve(`${dep}/package.json`), 'utf8')) as { version: string }).version;
    } catch {
      // Packages whose exports hide package.json: the name alone (their code rarely changes without a Skein change).
    }
    parts.push(`${dep}@${version}`);
  }
  return sha1(parts.join('\n'));
}
