/**
 * Test helpers: fixture paths, temporary packages written from a table of files, and a compact view of findings.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidationReport } from '../src/types.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = path.join(REPO, 'fixtures/validator');

/** Absolute path of `fixtures/validator/<rel>`. */
export function fixture(rel: string): string {
  return path.join(FIXTURES, rel);
}

/** `ruleId file:line:column` for each finding, file relative to the report root. */
export function summarize(report: ValidationReport): string[] {
  return report.diagnostics.map((d) => `${d.ruleId} ${path.relative(report.root, d.file)}:${d.line}:${d.column}`);
}

/** Writes `files` (path relative to `root` → text) under `root`, folders included; returns `root`. */
export function writeTree(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}
