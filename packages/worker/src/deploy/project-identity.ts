/**
 * A build's project identity: which project a build belongs to, so that a catalog's current version is replaced
 * automatically only by a new build of the same project. The identity is `SKEIN_PROJECT` when an operator sets one,
 * else the project's package.json `name`, else (with a warning) the project folder's name. Each build records it in
 * its Worker Versioning version's metadata (`skein.project`), where it outlives the build's workers: the engine still
 * knows whose build is current after every worker of it stopped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { WorkerStartupError } from '../check/errors.js';
import { describeVersion, type VersionDescription } from './deployment.js';

/** Key of a build's project identity in its deployment version's metadata. */
export const PROJECT_METADATA_KEY = 'skein.project';

/** Longest project identity, in characters. */
export const MAX_PROJECT_LENGTH = 214;

/** Where a project's identity came from. */
export type ProjectIdentitySource = 'SKEIN_PROJECT' | 'package.json' | 'folder';

/** A project's identity and where it came from; `warning` is set when the folder's name had to stand in. */
export interface ProjectIdentity {
  project: string;
  source: ProjectIdentitySource;
  warning?: string;
}

/**
 * The identity of the project at `root` (an absolute folder): `override` (`SKEIN_PROJECT`) when given, else the
 * `name` of `<root>/package.json`, else the folder's base name with a warning that says to set a name.
 * Never throws: an unreadable or malformed package.json counts as one without a name.
 */
export function resolveProjectIdentity(root: string, override?: string): ProjectIdentity {
  if (override !== undefined && override.trim() !== '') return { project: override.trim(), source: 'SKEIN_PROJECT' };
  let name: unknown;
  try {
    name = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { name?: unknown } | null)?.name;
  } catch {
    name = undefined;
  }
  if (typeof name === 'string' && name.trim() !== '') return { project: name.trim().slice(0, MAX_PROJECT_LENGTH), source: 'package.json' };
  const folder = path.basename(path.resolve(root)).slice(0, MAX_PROJECT_LENGTH);
  return {
    project: folder,
    source: 'folder',
    warning:
      `the project at ${root} has no package.json "name": its identity is the folder's name "${folder}", so another folder of ` +
      `the same project counts as another project; set "name" in package.json (or SKEIN_PROJECT)`,
  };
}

/** One deployment version: the deployment's name and the build ID. */
export interface VersionRef {
  name: string;
  buildId: string;
}

/**
 * The project identity recorded in version `version`'s metadata.
 * @returns the identity; null when the version records none (a build of an older Skein); undefined when the engine
 *   knows no such version.
 * @throws the engine's error for anything but "not found".
 */
export async function versionProject(client: Client, version: VersionRef): Promise<string | null | undefined> {
  const description = await describeVersion(client, version);
  return description && projectOf(description);
}

/** The project identity a described version records (its metadata entry `skein.project`); null when none. */
export function projectOf(description: VersionDescription): string | null {
  const payload = description.metadata[PROJECT_METADATA_KEY];
  if (!payload) return null;
  try {
    const value: unknown = defaultPayloadConverter.fromPayload(payload);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Records `project` as the identity of version `version` (its metadata entry `skein.project`), replacing an earlier one.
 * The version must exist: the engine creates it when a worker of the build first polls.
 * @param identity who records it, as the engine keeps it.
 * @throws the engine's error (NOT_FOUND or FAILED_PRECONDITION while the version does not exist yet).
 */
export async function recordVersionProject(client: Client, version: VersionRef, project: string, identity: string): Promise<void> {
  await client.workflowService.updateWorkerDeploymentVersionMetadata({
    namespace: client.options.namespace,
    deploymentVersion: { deploymentName: version.name, buildId: version.buildId },
    upsertEntries: { [PROJECT_METADATA_KEY]: defaultPayloadConverter.toPayload(project) },
    identity,
  });
}

/**
 * The project identity of every listed build of a deployment, read in parallel (`skein deploy status`).
 * @returns build ID → identity, null where a build records none or cannot be read.
 */
export async function versionProjects(client: Client, name: string, buildIds: readonly string[]): Promise<Map<string, string | null>> {
  const found = await Promise.all(buildIds.map((buildId) => versionProject(client, { name, buildId }).catch(() => null)));
  return new Map(buildIds.map((b, i) => [b, found[i] ?? null]));
}

/**
 * Thrown when a worker's build belongs to another project than the catalog's current version: its message is the one
 * line the worker prints before it exits 1 (both projects, the catalog, the remedies).
 */
export class ProjectMismatchError extends WorkerStartupError {
  override name = 'ProjectMismatchError';
  constructor(readonly mismatch: { catalog: string; project: string; currentProject: string; currentBuildId: string; buildId: string }) {
    const { catalog, project, currentProject, currentBuildId, buildId } = mismatch;
    super(
      `catalog "${catalog}" is served by project "${currentProject}" (build ${currentBuildId}), not by this worker's project "${project}" ` +
        `(build ${buildId}): not serving it. Serve another catalog (SKEIN_CATALOG=<name>), or, to hand the catalog to "${project}", ` +
        `run: skein deploy promote ${buildId} --catalog ${catalog} --allow-project-change`,
    );
  }
}
