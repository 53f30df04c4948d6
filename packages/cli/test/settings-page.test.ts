import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSettings } from '@skein/api';
import { RENAMED_SETTINGS } from '@skein/runtime';
import { workerSettings } from '@skein/worker/settings';
import { describe, expect, it } from 'vitest';
import { cliSettings } from '../src/config.js';
import { settingsPage } from '../src/settings-page.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');

describe('the settings page', () => {
  it('is the one generated from the schemas (run this test with -u after changing a setting)', async () => {
    await expect(settingsPage()).toMatchFileSnapshot(path.join(repo, 'docs/reference/settings.md'));
  });

  it('lists every variable of every schema, and the docs name no SKEIN_ variable that no schema reads', () => {
    const page = read('docs/reference/settings.md');
    const known = new Set([...Object.keys(workerSettings), ...Object.keys(apiSettings), ...Object.keys(cliSettings)]);
    for (const name of known) expect(page).toContain(`| \`${name}\` |`);
    const docs = ['README.md', 'docs/api.md', 'docs/cli.md', 'docs/architecture.md', 'docs/testing.md', 'docs/reference/api-contract.md'];
    for (const file of docs) {
      for (const [name] of read(file).matchAll(/\bSKEIN_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        expect({ file, name, known: known.has(name) }).toEqual({ file, name, known: true });
      }
    }
    for (const old of Object.keys(RENAMED_SETTINGS)) expect(known.has(old)).toBe(false);
  });
});
