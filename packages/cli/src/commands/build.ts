import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `skein build [projectDir] [--out DIR]`: validates the project, imports its definitions, bundles its workflow
 * code ahead of time and writes the build (default `<projectDir>/.skein/build`): the bundle, the manifest, the
 * definitions' facts, the catalog document (for `SKEIN_CATALOG`) and `skein-build.json` (build ID, versions,
 * each file's SHA-256). `skein worker <buildDir>` serves it without validating or bundling.
 * Exit 0 built; 1 the project is refused (every finding printed) or a file cannot be written; 2 usage error.
 */
export async function buildCommand(dir: string, flags: { out?: string }): Promise<void> {
  const projectDir = path.resolve(dir);
  if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
    process.stderr.write(`skein: ${dir} is not a directory\n`);
    process.exit(2);
  }
  const started = performance.now();
  const worker = await import('@skein/worker');
  const { cliLogger, fail } = await import('../logger.js');
  const logger = cliLogger('skein-build');
  try {
    const prepared = await worker.prepareProject(projectDir, { logger });
    const out = path.resolve(flags.out ?? path.join(prepared.manifest.root, '.skein', 'build'));
    const { catalog } = worker.loadWorkerConfig();
    const record = await worker.writeBuild(prepared, out, { catalog, deploymentName: worker.loadDeploymentConfig(catalog).name });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`built ${prepared.manifest.workflows.length} workflow(s) into ${out} in ${seconds} s: build ID ${record.buildId}\n`);
  } catch (err) {
    const { explainError } = await import('../explain.js');
    fail(explainError(err));
  }
}
