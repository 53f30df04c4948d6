/**
 * The build ID of a worker: which version of a project it runs, for Temporal's Worker Versioning. Two workers
 * with the same build ID behave the same; any change that can alter what a run does gives a new one.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { confineFileSystem, Diagnostics, isDeclarationFile, isSkippedDirName, isTestFile, nodeFileSystem, walkFiles } from '@skein/discovery';
import { FileDigests } from '../cache/file-digests.js';

/** Everything a build ID is computed from. */
export interface BuildIdInputs {
  /** The workflow bundle's code (what `Worker.create({ workflowBundle: { code } })` runs). */
  workflowCode: string;
  /** The project root first, then the root of every exposed package it serves (absolute paths). */
  roots: readonly string[];
  /**
   * Absolute paths compiled into the bundle that depend on where the project sits or where traces go (the
   * trace directory, the roots are always included): replaced by placeholders before hashing, so two copies of
   * one build in different folders, or with different trace directories, share a build ID.
   */
  locations?: readonly string[];
  /** The start's shared file digests, so that an unchanged file is not read again; default: read every file. */
  digests?: FileDigests;
}

/** Packages whose resolved versions are part of every build ID: Skein's own and Temporal's run-time packages. */
const RUNTIME_PACKAGES = [
  '@skein/core',
  '@skein/worker',
  '@temporalio/worker',
  '@temporalio/workflow',
  '@temporalio/activity',
  '@temporalio/common',
  '@temporalio/client',
] as const;

/** Files of a package's own tree whose content decides behaviour: code and the JSON data it may import. */
const CODE_FILE = /\.(c|m)?[jt]sx?$|\.json$/;
/** JSON files that configure tools rather than hold data (package.json is read by its fields, below). */
const TOOL_JSON = /^(package|package-lock|tsconfig(\..*)?|jsconfig|npm-shrinkwrap)\.json$/;

/**
 * The build ID of a project's code: SHA-256 (hex, first 24 characters) of
 * - the workflow bundle without its inline source map, with `roots` and `locations` replaced by placeholders (the
 *   map is derived from the bundled code and the sources hashed below, and encodes every path in base64 and every
 *   column after one, so a longer trace folder would shift it);
 * - the content of every code file (`.js`, `.ts`, `.mjs`, `.cjs`, `.mts`, `.cts`, `.jsx`, `.tsx`, and JSON data
 *   files) of the project and of each exposed package, outside `node_modules`, dot-folders (`.skein`, `.git`)
 *   and test files: steps, evaluators, shared activities, hook files and whatever they import from the project;
 * - each root's `package.json` by the fields that change how code loads or what it gets (`type`, `main`,
 *   `exports`, `imports`, `skein`) and the resolved version of each of its `dependencies`, never by its text
 *   (reformatting it, or editing its description or scripts, keeps the build ID);
 * - the resolved versions of Skein's and Temporal's run-time packages and of Node.js.
 * A one-character change to any step gives a new build ID; so does upgrading a dependency.
 * Synchronous; reads each file once (or not at all when `digests` knows it unchanged).
 */
export function computeBuildId(inputs: BuildIdInputs): string {
  const digests = inputs.digests ?? new FileDigests(null);
  const hash = createHash('sha256');
  const line = (s: string) => hash.update(s).update('\n');
  line('skein-build-1');
  line(`node ${process.versions.node}`);
  for (const name of RUNTIME_PACKAGES) line(`${name}@${resolvedVersion(name, import.meta.filename)}`);
  const given = inputs.roots.map((r) => path.resolve(r));
  const roots = given.map((r) => realpathSync(r));
  roots.forEach((root, i) => {
    line(`root ${i}`);
    line(packageFields(root));
    for (const file of codeFiles(root)) line(`${path.relative(root, file).split(path.sep).join('/')} ${digests.digest(file) ?? 'unreadable'}`);
  });
  line('bundle');
  const places = [
    ...roots.map((r, i) => [r, `<root${i}>`] as const),
    ...given.map((r, i) => [r, `<root${i}>`] as const),
    ...(inputs.locations ?? []).map((l, i) => [path.resolve(l), `<location${i}>`] as const),
  ];
  hash.update(placeLess(withoutInlineSourceMap(inputs.workflowCode), places));
  return hash.digest('hex').slice(0, 24);
}

/**
 * The build ID a worker runs under: `override` (`SKEIN_BUILD_ID`) when set, else `compute()`.
 * @throws Error when the override is not a usable build ID (empty after trimming, longer than 255 characters, or
 *   holding a `.` or whitespace, which Temporal refuses, or an `@`, which separates a catalog from a build ID in the
 *   ids of Skein's records).
 */
export function resolveBuildId(override: string | undefined, compute: () => string): string {
  if (override === undefined || override.trim() === '') return compute();
  const id = override.trim();
  if (id.length > 255 || /[.\s@]/.test(id))
    throw new Error(`SKEIN_BUILD_ID "${id}" is not a usable build ID: at most 255 characters, no ".", "@" or whitespace`);
  return id;
}

/** How many files `digestProjectCode` hashes between two turns of the event loop. */
const DIGEST_BATCH = 64;

/**
 * Reads and hashes into `digests` every code file the build ID of `roots` covers (see `computeBuildId`), giving the
 * event loop a turn every `DIGEST_BATCH` files: done while another process works (webpack), a later `computeBuildId`
 * with the same `digests` then only looks them up.
 */
export async function digestProjectCode(roots: readonly string[], digests: FileDigests): Promise<void> {
  for (const root of roots.map((r) => realpathSync(path.resolve(r)))) {
    const files = codeFiles(root);
    for (let i = 0; i < files.length; i += DIGEST_BATCH) {
      for (const file of files.slice(i, i + DIGEST_BATCH)) digests.digest(file);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * The code files under `root` (real paths, sorted), skipping `node_modules`, dot-folders, `__tests__`, tests and
 * `.d.ts` files; symlinks leading out of `root` are not followed.
 */
function codeFiles(root: string): string[] {
  return walkFiles(
    confineFileSystem(nodeFileSystem, [root]),
    root,
    {
      skipDir: (name) => isSkippedDirName(name),
      wantFile: (name, file) => CODE_FILE.test(name) && !TOOL_JSON.test(name) && !isTestFile(file) && !isDeclarationFile(file),
    },
    new Diagnostics(),
  );
}

/** The behaviour-deciding fields of `<root>/package.json` in a canonical form (sorted keys), with each dependency's resolved version. */
function packageFields(root: string): string {
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return 'no package.json';
  }
  const from = path.join(root, 'package.json');
  const deps = Object.keys((pkg.dependencies as Record<string, string> | undefined) ?? {})
    .sort()
    .map((d) => `${d}@${resolvedVersion(d, from)}`);
  return canonical({ type: pkg.type, main: pkg.main, exports: pkg.exports, imports: pkg.imports, skein: pkg.skein, dependencies: deps });
}

/** JSON with object keys sorted at every level. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The version of package `name` as Node resolves it from `fromFile`: `missing` when not installed, `unknown` when it has no readable version. */
function resolvedVersion(name: string, fromFile: string): string {
  const require = createRequire(fromFile);
  let entry: string;
  try {
    entry = require.resolve(`${name}/package.json`);
  } catch {
    // Packages whose `exports` hide package.json: find it above the resolved entry.
    try {
      entry = require.resolve(name);
    } catch {
      return 'missing';
    }
    for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'package.json');
      try {
        const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? 'unknown';
      } catch {
        // not here: keep walking up
      }
      if (path.dirname(dir) === dir) return 'unknown';
    }
  }
  try {
    return (JSON.parse(readFileSync(entry, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The bundle's code without its trailing inline source map comment (`//# sourceMappingURL=data:...`), if any. */
function withoutInlineSourceMap(code: string): string {
  const at = code.lastIndexOf('\n//# sourceMappingURL=data:');
  if (at === -1) return code;
  const end = code.indexOf('\n', at + 1);
  return end === -1 || code.slice(end).trim() === '' ? code.slice(0, at) : code;
}

/** `text` with every occurrence of each path replaced by its placeholder (longest paths first, so a nested path wins). */
function placeLess(text: string, places: ReadonlyArray<readonly [string, string]>): string {
  const names = new Map<string, string>();
  for (const [place, name] of places) if (place.length > 1 && !names.has(place)) names.set(place, name);
  if (names.size === 0) return text;
  // One pass over the bundle (a project with 200 packages has 400 places: one split/join each took 0.6 s on the
  // 1,000-workflow benchmark's 7 MB bundle, the single pass 0.17 s); the longest place wins where two start alike.
  const alternatives = [...names.keys()].sort((a, b) => b.length - a.length).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(alternatives.join('|'), 'g'), (found) => names.get(found)!);
}
