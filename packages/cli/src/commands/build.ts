import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `skein build [projectDir] [--out DIR]`: validates the project, imports its definitions, bundles its workflow
 * code ahead of time and writes the build (default `<projectDir>/.skein/build`): the bundle, the manifest, the
 * definitions' facts, the catalog document (for `SKEIN_CATALOG`) and `skein-build.json` (build ID, versions,
 * each file's SHA-256). `skein worker <buildDir>` serves it without validating or bundling.
 * With `--baseline <dir>` (a deployed build, or another checkout of the project) each auto-upgrade workflow's
 * commands are first compared with the baseline's: a `versioning/incompatible-change` refuses the build.
 * Exit 0 built; 1 the project is refused (every finding printed) or a file cannot be written; 2 usage error
 * (a baseline that is not a build or a project, or a build of another project).
 */
export async function buildCommand(dir: string, flags: { out?: string; baseline?: string }): Promise<void> {
  const projectDir = path.resolve(dir);
  if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) {
    process.stderr.write(`skein: ${dir} is not a directory\n`);
    process.exit(2);
  }
  const started = performance.now();
  if (flags.baseline !== undefined) await checkBaseline(projectDir, flags.baseline);
  const worker = await import('@skein/worker');
  const { cliLogger, fail } = await import('../logger.js');
  const logger = cliLogger('skein-build');
  try {
    // A folder the build must not write into is refused before the build's work, not after it.
    if (flags.out !== undefined) worker.prepareBuildOutput(flags.out, projectDir);
    const prepared = await worker.prepareProject(projectDir, { logger, shapes: true, buildId: true });
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

/** The versioning check of `--baseline`: prints its findings; exits 1 on an error, 2 on a bad baseline. */
async function checkBaseline(projectDir: string, baseline: string): Promise<void> {
  const validator = await import('@skein/validator');
  let findings;
  try {
    findings = await validator.compareVersions({
      dir: projectDir,
      baseline: path.resolve(baseline),
      onWarning: (line) => process.stderr.write(`skein: warning: ${line}\n`),
      onNote: (line) => process.stderr.write(`skein: note: ${line}\n`),
    });
  } catch (error) {
    if (!(error instanceof validator.BaselineError)) throw error;
    process.stderr.write(`skein: ${error.message}\n`);
    process.exit(2);
  }
  if (findings.length === 0) return;
  const errorCount = findings.filter((f) => f.severity === 'error').length;
  const report = {
    root: projectDir,
    manifest: undefined as never,
    diagnostics: findings,
    errorCount,
    warningCount: findings.length - errorCount,
    filesChecked: 0,
  };
  process.stderr.write(validator.formatStylish(report, { cwd: process.cwd(), color: process.stderr.isTTY }));
  if (errorCount > 0) {
    process.stderr.write(`skein: the build is refused: ${errorCount} incompatible change(s) against ${baseline}\n`);
    process.exit(1);
  }
}
