import type { Manifest } from '@skein/discovery';

/**
 * The manifest as a worker serves it: without each workflow's `activityTypes` (every `<workflow>#<activity>` the
 * workflow may call, shared activities included: hundreds of strings per workflow, nine tenths of the
 * 1,000-workflow benchmark's manifest, and nothing a worker reads) and without the findings (the project passed
 * its check; its warnings are for authors and stay in the report). What a build stores, and what the startup check's
 * thread hands to the worker (a tenth of the copying between threads).
 */
export function servedManifest(manifest: Manifest): Manifest {
  return { ...manifest, diagnostics: [], workflows: manifest.workflows.map((w) => ({ ...w, activityTypes: [] })) };
}
