/**
 * A project held in memory for `discover()`: its files under `/p`, a private package.json, nothing read from disk.
 */
import { discover, type Manifest } from '../src/index.js';
import { memoryFileSystem } from './memfs.js';
import { packageJson } from './tmp.js';

/** The authoring imports a test file starts with. */
export const CORE = "import { workflow, step, evaluator } from '@skein/core';\n";

/** Discovers the project whose files (path relative to `/p` → text) are given, with a private package.json. */
export function discoverProject(files: Record<string, string>): Promise<Manifest> {
  const all: Record<string, string> = { '/p/package.json': packageJson('p', { private: true }) };
  for (const [rel, text] of Object.entries(files)) all[`/p/${rel}`] = text;
  return discover('/p', { fs: memoryFileSystem(all), ceiling: '/p' });
}

/** Each finding as `<rule> <file relative to /p>:<line>:<column>`. */
export const findingsAt = (m: Manifest): string[] => m.diagnostics.map((d) => `${d.ruleId} ${d.file.slice(3)}:${d.line}:${d.column}`);
