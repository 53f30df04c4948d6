#!/usr/bin/env node
// Writes the generated parts of the documentation from the settings schemas (run `npm run build` first; `npm run
// generate:docs` does both): docs/reference/settings.md whole, and every `<!-- settings: NAMES -->` …
// `<!-- end settings -->` table in README.md, CONTRIBUTING.md, bench/README.md and docs/**/*.md.
// packages/cli/test/settings-page.test.ts fails while a page differs from what this writes.
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsPage, withSettingsTables } from '../packages/cli/dist/settings-page.js';

const repo = path.resolve(import.meta.dirname, '..');
const changed = [];
const write = (file, text) => {
  const full = path.join(repo, file);
  if (readFileSync(full, 'utf8') === text) return;
  writeFileSync(full, text);
  changed.push(file);
};
write('docs/reference/settings.md', settingsPage());
for (const file of ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...globSync('docs/**/*.md', { cwd: repo })]) {
  write(file, withSettingsTables(readFileSync(path.join(repo, file), 'utf8')));
}
console.log(changed.length > 0 ? `generate-docs: wrote ${changed.join(', ')}` : 'generate-docs: every page is up to date');
