import { discover, type Diagnostic, type Manifest } from '@skein/discovery';
import type { Logger } from 'pino';
import { WorkerStartupError } from './errors.js';

function line(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}  ${d.severity}  ${d.message}  ${d.ruleId}${d.hint ? `\n    hint: ${d.hint}` : ''}`;
}

/**
 * Static check at startup, before the engine is contacted: discovers the project and refuses it when any
 * diagnostic is an error. Warnings are logged.
 * @throws WorkerStartupError whose message lists every diagnostic.
 */
export async function checkProject(projectDir: string, logger: Logger): Promise<Manifest> {
  const manifest = await discover(projectDir);
  const errors = manifest.diagnostics.filter((d) => d.severity === 'error');
  for (const d of manifest.diagnostics.filter((x) => x.severity === 'warning')) logger.warn({ ruleId: d.ruleId, file: d.file }, line(d));
  if (errors.length > 0) {
    throw new WorkerStartupError(
      `${manifest.root} has ${errors.length} error(s); the worker will not start:\n${manifest.diagnostics.map(line).join('\n')}`,
    );
  }
  return manifest;
}
