import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RemoteTraceLocation } from '@skein/names/traces';
import type { Manifest } from '@skein/discovery';
import { buildCatalogDocument } from '../catalog.js';
import { WorkerStartupError } from '../../check/errors.js';
import { servedManifest } from '../../check/served-manifest.js';
import { projectFacts, restoreProject, type LoadedProject, type ProjectFacts } from '../../host/load.js';
import { BUILD_FILES, BUILD_RECORD, SERVED_BUILD_FILES } from './build-files.js';
import { deriveCommandShapes } from '@skein/discovery';
import { projectBuildId } from './project-code.js';
import type { PreparedProject } from './prepare.js';

/** Format of `BUILD_RECORD`; a worker refuses other formats. */
const BUILD_FORMAT = 1;
const FILES = BUILD_FILES;

/** Versions a build depends on: a worker of other versions refuses it. */
interface BuildVersions {
  skein: string;
  temporal: string;
  node: string;
}

/** Content of `skein-build.json`. */
export interface BuildRecord {
  format: number;
  /** The build ID of the project's code (`computeBuildId`); `SKEIN_BUILD_ID` at start overrides it. */
  buildId: string;
  /** ISO 8601. */
  createdAt: string;
  versions: BuildVersions;
  /** The project root, absolute, where the build was made and must run. */
  projectDir: string;
  /** The trace directory compiled into the bundle (absolute), or null for none. */
  traceDir: string | null;
  /**
   * The S3 trace destination compiled into the bundle (bucket, prefix, region, endpoint), or null for none; a
   * worker serving the build uploads there and refuses to start when its settings name another.
   */
  traceRemote: RemoteTraceLocation | null;
  /** SHA-256 (hex) of each file of the build, by name. */
  files: Record<string, string>;
}

/** A build opened and checked by `openBuild`: everything a worker needs to serve without validating or bundling. */
export interface OpenedBuild {
  dir: string;
  record: BuildRecord;
  manifest: Manifest;
  project: LoadedProject;
  workflowCode: string;
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

function versionOf(pkgJson: string): string {
  return (JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string }).version;
}

/** The versions this process runs: Skein's worker, Temporal's worker, Node.js. */
export function currentVersions(): BuildVersions {
  return {
    skein: versionOf(new URL('../../../package.json', import.meta.url).pathname),
    temporal: versionOf(createRequire(import.meta.url).resolve('@temporalio/worker/package.json')),
    node: process.versions.node,
  };
}

/**
 * Whether `dir` lies inside one of `roots` outside every dot-folder: its files would count as the project's
 * code (the build ID hashes them), so a build there would change its own project.
 */
export function insideProjectCode(dir: string, roots: readonly string[]): boolean {
  const target = path.resolve(dir);
  return roots.some((root) => {
    const rel = path.relative(root, target);
    if (rel === '') return true;
    if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return !rel.split(path.sep).some((part) => part.startsWith('.') || part === 'node_modules');
  });
}

/** @throws WorkerStartupError when `dir` is inside the code of one of `roots` (see `insideProjectCode`). */
function refuseInsideProjectCode(dir: string, projectRoot: string, roots: readonly string[]): void {
  if (!insideProjectCode(dir, roots)) return;
  throw new WorkerStartupError(
    `${dir} is inside the project's code: build into a dot-folder (the default is ${path.join(projectRoot, '.skein', 'build')}) or outside the project`,
  );
}

const BUILD_FILE_NAMES: ReadonlySet<string> = new Set(Object.values(BUILD_FILES));

/**
 * Refuses an output folder a build must not write into: a file, or a folder holding files that are not a build
 * (another project's root, someone's documents), whose files of the same names (`manifest.json`, `catalog.json`)
 * a build would replace. A missing folder is created (with its missing parents), so one that cannot be is named
 * before the build's work begins; an empty folder, or an earlier build's, is fine. With `projectDir`, a folder inside
 * that project's code is refused first (`insideProjectCode`; `writeBuild` asks again of every package's root).
 * Synchronous.
 * @throws WorkerStartupError naming the folder, a few of its entries and what to pass instead, or why it cannot be
 *   created.
 */
export function prepareBuildOutput(outDir: string, projectDir?: string): void {
  const dir = path.resolve(outDir);
  if (projectDir !== undefined) refuseInsideProjectCode(dir, path.resolve(projectDir), [path.resolve(projectDir)]);
  let entries: string[] | undefined;
  try {
    if (!statSync(dir).isDirectory()) throw new WorkerStartupError(`${dir} is a file: build into a new or empty folder, or into an earlier build's`);
    entries = readdirSync(dir);
  } catch (error) {
    if (error instanceof WorkerStartupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // Missing (created below), or below a file (ENOTDIR: creating it names the problem); anything else is named now.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new WorkerStartupError(`cannot use the build folder ${dir}: ${(error as Error).message}`);
  }
  if (entries === undefined) {
    try {
      makeFolder(dir);
    } catch (error) {
      throw new WorkerStartupError(`cannot create the build folder ${dir}: ${(error as Error).message}`);
    }
    return;
  }
  // An earlier build, complete or not: its record, or (a build stopped before its record) nothing but a build's
  // files, the bundle, written first, among them. A lone `manifest.json` is someone else's.
  if (entries.length === 0 || entries.includes(BUILD_RECORD)) return;
  if (entries.includes(BUILD_FILES.bundle) && entries.every((name) => BUILD_FILE_NAMES.has(name))) return;
  const shown = entries.sort().slice(0, 3).join(', ') + (entries.length > 3 ? `, and ${entries.length - 3} more` : '');
  throw new WorkerStartupError(
    `${dir} holds files that are not a build (${shown}), which a build would overwrite: build into a new or empty folder, or into an earlier build's`,
  );
}

/**
 * Creates `dir` and its missing parents one at a time from the nearest existing one. Not `mkdir(dir, { recursive:
 * true })`: Node's (libuv's) recursive mkdir never returns where creating a folder fails with ENOENT although its
 * parent exists (`/proc/x/y`: it takes ENOENT for a missing parent and retries forever; checked with Node 20 and
 * 24), and an operator's `--out` may name such a place.
 * @throws the file system's error for the first folder that cannot be created (ENOENT, EACCES, ENOTDIR, EROFS)
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = path.dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Writes the build of a prepared project into `outDir` (created if needed; a previous build there is replaced):
 * the workflow bundle, the manifest, the definitions' facts, the catalog document (for `catalog`, served by the
 * deployment `deploymentName`, default the catalog's name) and, last,
 * `skein-build.json` with the build ID, the versions it was made with and each file's SHA-256.
 * @returns the record written.
 * @throws WorkerStartupError when `outDir` lies in the project's code (see `insideProjectCode`), is refused by
 *   `prepareBuildOutput`, or cannot be created; the file system's error when a file cannot be written.
 */
export async function writeBuild(
  prepared: PreparedProject,
  outDir: string,
  options: { catalog: string; deploymentName?: string; now?: Date },
): Promise<BuildRecord> {
  const { manifest, project, workflowCode, traceDir, traceRemote } = prepared;
  const dir = path.resolve(outDir);
  refuseInsideProjectCode(dir, manifest.root, [manifest.root, ...manifest.packages.map((p) => p.root)]);
  prepareBuildOutput(dir);
  // Without its record a half-written build is refused as incomplete.
  await rm(path.join(dir, BUILD_RECORD), { force: true });
  const facts: ProjectFacts = projectFacts(project);
  const buildId = projectBuildId(manifest, workflowCode, traceDir, prepared.digests);
  const deployment = { name: options.deploymentName ?? options.catalog, buildId };
  const contents: Record<string, string> = {
    [FILES.bundle]: workflowCode,
    [FILES.manifest]: JSON.stringify(servedManifest(manifest)),
    [FILES.facts]: JSON.stringify(facts),
    [FILES.catalog]: JSON.stringify(buildCatalogDocument(project, options.catalog, 'skein build', (options.now ?? new Date()).getTime(), deployment), null, 2),
    // From the validation's parse when it ran; after a cached outcome, from a discovery of their own.
    [FILES.shapes]: JSON.stringify(prepared.shapes ?? (await deriveCommandShapes(manifest.root))),
  };
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    await writeFile(path.join(dir, name), text);
    files[name] = sha256(text);
  }
  const record: BuildRecord = {
    format: BUILD_FORMAT,
    buildId,
    createdAt: (options.now ?? new Date()).toISOString(),
    versions: currentVersions(),
    projectDir: manifest.root,
    traceDir,
    traceRemote,
    files,
  };
  await writeFile(path.join(dir, BUILD_RECORD), JSON.stringify(record, null, 2) + '\n');
  return record;
}

/**
 * Opens the build in `dir` and checks it before a worker serves it; nothing is imported or bundled:
 * - its record is there, of this format, made with this Skein, Temporal SDK and Node.js version;
 * - every file it lists is there with the content it had at build time;
 * - the project it was built from is where it was, with the same code (its build ID computed again).
 * @param options.projectBuildId that build ID, begun earlier by `beginProjectCodeCheck(dir)` (in a thread, while the
 *   process loaded the rest of the worker); default: computed here.
 * @throws WorkerStartupError with one line naming what is wrong and the fix (`skein build` again).
 */
export async function openBuild(dir: string, options: { projectBuildId?: Promise<string> } = {}): Promise<OpenedBuild> {
  const buildDir = path.resolve(dir);
  const again = `run "skein build" again`;
  const recordText = await readFile(path.join(buildDir, BUILD_RECORD), 'utf8').catch(() => null);
  if (recordText === null) throw new WorkerStartupError(`${buildDir} is not a complete build: ${BUILD_RECORD} is missing (${again})`);
  let record: BuildRecord;
  try {
    record = JSON.parse(recordText) as BuildRecord;
  } catch {
    throw new WorkerStartupError(`${buildDir}: ${BUILD_RECORD} is not valid JSON (${again})`);
  }
  if (record?.format !== BUILD_FORMAT) {
    throw new WorkerStartupError(
      `${buildDir}: ${BUILD_RECORD} is not a build record of this Skein version (format ${String(record?.format)}, expected ${BUILD_FORMAT}; ${again})`,
    );
  }
  const lacking = (['buildId', 'files', 'versions'] as const).filter((key) => (key === 'buildId' ? typeof record.buildId !== 'string' : !record[key]));
  if (lacking.length > 0) {
    throw new WorkerStartupError(`${buildDir}: ${BUILD_RECORD} lacks ${lacking.join(', ')}: it was not written by skein build, or was edited (${again})`);
  }
  const now = currentVersions();
  for (const [key, label] of [
    ['skein', 'Skein'],
    ['temporal', 'the Temporal SDK'],
    ['node', 'Node.js'],
  ] as const) {
    if (record.versions[key] !== now[key]) {
      throw new WorkerStartupError(`${buildDir} was built with ${label} ${record.versions[key]}, this worker runs ${now[key]} (${again} with this version)`);
    }
  }
  const texts: Record<string, string> = {};
  for (const name of SERVED_BUILD_FILES) {
    const expected = record.files[name];
    const text = await readFile(path.join(buildDir, name), 'utf8').catch(() => null);
    if (expected === undefined || text === null) throw new WorkerStartupError(`${buildDir} is not a complete build: ${name} is missing (${again})`);
    if (sha256(text) !== expected) throw new WorkerStartupError(`${path.join(buildDir, name)} was changed after the build (${again})`);
    texts[name] = text;
  }
  const manifest = JSON.parse(texts[FILES.manifest]!) as Manifest;
  const workflowCode = texts[FILES.bundle]!;
  let buildId: string;
  try {
    buildId = await (options.projectBuildId ?? projectBuildId(manifest, workflowCode, record.traceDir));
  } catch (err) {
    throw new WorkerStartupError(
      `${buildDir} was built from ${record.projectDir}, which cannot be read now (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): run the build where it was made, or ${again}`,
    );
  }
  if (buildId !== record.buildId) {
    throw new WorkerStartupError(`the code of ${record.projectDir} was changed after the build (build ID ${record.buildId}, now ${buildId}): ${again}`);
  }
  let project: LoadedProject;
  try {
    project = restoreProject(manifest, JSON.parse(texts[FILES.facts]!) as ProjectFacts);
  } catch (err) {
    throw new WorkerStartupError(`${buildDir}: ${(err as Error).message} (${again})`);
  }
  return { dir: buildDir, record, manifest, project, workflowCode };
}
