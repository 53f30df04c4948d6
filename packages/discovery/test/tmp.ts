import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary project tree (real path), built from `files` (path → text) and `links` (path → link target). */
export function tempProject(files: Record<string, string>, links: Record<string, string> = {}): { root: string; cleanup(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'skein-discovery-')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    symlinkSync(target, join(root, path));
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A minimal `workflow.js` text. */
export function workflowJs(name: string): string {
  return `import { workflow } from '@skein/core';\n\nexport default workflow({ name: '${name}', fn: async (x) => x });\n`;
}

/** A package.json text. */
export function packageJson(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name, version: '1.0.0', type: 'module', ...extra });
}

export const EXPOSE = { skein: { workflows: { expose: true } } };
