import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import { discover, type Diagnostic, type DiscoverOptions, type Manifest } from '../src/index.js';

/** Absolute path of `fixtures/discovery/<name>`. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../../fixtures/discovery/${name}`, import.meta.url));
}

/** Discovers a fixture project, never looking above it for node_modules. */
export function discoverFixture(name: string, options: DiscoverOptions = {}): Promise<Manifest> {
  const root = fixture(name);
  return discover(root, { ceiling: root, ...options });
}

/** A diagnostic as `ruleId file:line:column`, the file relative to `root`. */
export function brief(d: Diagnostic, root: string): string {
  return `${d.ruleId} ${relative(root, d.file)}:${d.line}:${d.column}`;
}

/** Every diagnostic of a manifest, briefly. */
export function briefs(m: Manifest): string[] {
  return m.diagnostics.map((d) => brief(d, m.root));
}

/** A path relative to the manifest root. */
export function rel(m: Manifest, file: string): string {
  return relative(m.root, file);
}

/** Workflows as `name <- package:exportName (relative file)`. */
export function workflowSummary(m: Manifest): string[] {
  return m.workflows.map((w) => `${w.name} <- ${w.package?.name ?? '(local)'}:${w.exportName} (${rel(m, w.file)})`);
}

export { join };
