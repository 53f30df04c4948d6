/**
 * The build ID of the project a build was made from, computed again (`computeBuildId` over the project's code
 * files and the build's bundle) so that a worker refuses a build whose project changed since. On the
 * 1,000-workflow benchmark that walks and hashes about 4,000 files: 0.5-1 s of wall time on a loaded machine, on
 * the way to the first run. `beginProjectCodeCheck` runs it in a worker thread while the process loads Temporal's
 * SDK (another 1.5-3.5 s there), so that it costs the start nothing when a second core is free.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Manifest } from '@skein/discovery';
import type { FileDigests } from '../../cache/file-digests.js';
import { computeBuildId } from '../build-id.js';
import { BUILD_FILES, BUILD_RECORD } from './build-files.js';

/**
 * The build ID of `manifest`'s project with `workflowCode` as its bundle and `traceDir` compiled into it (see
 * `computeBuildId`), reading files through `digests` when given.
 */
export function projectBuildId(manifest: Pick<Manifest, 'root' | 'packages'>, workflowCode: string, traceDir: string | null, digests?: FileDigests): string {
  return computeBuildId({
    workflowCode,
    roots: [manifest.root, ...manifest.packages.map((p) => p.root)],
    ...(traceDir ? { locations: [traceDir] } : {}),
    ...(digests ? { digests } : {}),
  });
}

/**
 * `projectBuildId` of the build in `buildDir` (its record's trace directory, its manifest and bundle as they are on disk).
 * @throws Error (with the file system's `code`) when a file of the build or of its project cannot be read, or is not JSON.
 */
export async function buildDirProjectBuildId(buildDir: string): Promise<string> {
  const [record, manifest, code] = await Promise.all([
    readFile(path.join(buildDir, BUILD_RECORD), 'utf8'),
    readFile(path.join(buildDir, BUILD_FILES.manifest), 'utf8'),
    readFile(path.join(buildDir, BUILD_FILES.bundle), 'utf8'),
  ]);
  return projectBuildId(JSON.parse(manifest) as Manifest, code, (JSON.parse(record) as { traceDir?: string | null }).traceDir ?? null);
}

/** What the thread posts back. */
type ThreadResult = { buildId: string } | { error: { message: string; code?: string } };

/**
 * Begins `buildDirProjectBuildId(buildDir)` in a worker thread (in this thread under a TypeScript runner), for
 * `openBuild(dir, { projectBuildId })`.
 * @returns the build ID; rejects as `buildDirProjectBuildId` does (the error keeps the file system's `code`).
 */
export function beginProjectCodeCheck(buildDir: string): Promise<string> {
  const checking = import.meta.url.endsWith('.ts') ? buildDirProjectBuildId(buildDir) : inThread(buildDir);
  // Awaited by openBuild later; until then a failure must not count as an unhandled rejection.
  checking.catch(() => {});
  return checking;
}

function inThread(buildDir: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const thread = new Worker(new URL('./project-code-thread.js', import.meta.url), { workerData: { buildDir } });
    thread.once('error', reject);
    thread.once('message', (result: ThreadResult) => {
      void thread.terminate();
      if ('buildId' in result) return resolve(result.buildId);
      reject(Object.assign(new Error(result.error.message), result.error.code ? { code: result.error.code } : {}));
    });
    thread.once('exit', () => reject(new Error('the project check thread stopped without an answer')));
  });
}
