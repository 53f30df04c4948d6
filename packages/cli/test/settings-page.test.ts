import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSettings } from '@skein/api';
import { SETTING_ALIASES } from '@skein/settings';
import { workerSettings } from '@skein/worker/settings';
import { describe, expect, it } from 'vitest';
import { cliSettings } from '../src/config.js';
import { settingsPage, settingsTableOf, withSettingsTables } from '../src/settings-page.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(repo, file), 'utf8');
/** Every Markdown page of the repository's own documentation. */
const pages = ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...globSync('docs/**/*.md', { cwd: repo })];

describe('the settings page', () => {
  it('is the one generated from the schemas (run this test with -u after changing a setting)', async () => {
    await expect(settingsPage()).toMatchFileSnapshot(path.join(repo, 'docs/reference/settings.md'));
  });

  it('lists every variable of every schema, and the docs name no SKEIN_ variable that no schema reads', () => {
    const page = read('docs/reference/settings.md');
    const known = new Set([...Object.keys(workerSettings), ...Object.keys(apiSettings), ...Object.keys(cliSettings)]);
    for (const name of known) expect(page).toContain(`| \`${name}\` |`);
    // The settings page itself names the aliases, which no schema reads under that name.
    for (const file of pages.filter((f) => f !== 'docs/reference/settings.md')) {
      for (const [name] of read(file).matchAll(/\bSKEIN_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        expect({ file, name, known: known.has(name) }).toEqual({ file, name, known: true });
      }
    }
    for (const alias of Object.keys(SETTING_ALIASES)) expect(known.has(alias)).toBe(false);
  });

  it('every settings table of another page is the generated one for the variables it names (npm run generate:docs rewrites them)', () => {
    const withTables = pages.filter((file) => read(file).includes('<!-- settings: '));
    expect(withTables).toEqual(expect.arrayContaining(['docs/deploying.md', 'docs/operating.md']));
    for (const file of withTables) expect(withSettingsTables(read(file)), file).toBe(read(file));
  });
});

describe('settingsTableOf', () => {
  it("holds the settings page's rows of the named variables only, sorted", () => {
    const table = settingsTableOf(['SKEIN_PROMOTE', 'SKEIN_CATALOG']).trimEnd().split('\n');
    expect(table).toHaveLength(4);
    const rows = settingsPage().split('\n');
    expect(table.slice(2)).toEqual([rows.find((r) => r.startsWith('| `SKEIN_CATALOG` |')), rows.find((r) => r.startsWith('| `SKEIN_PROMOTE` |'))]);
  });

  it('refuses a variable that no schema reads', () => {
    expect(() => settingsTableOf(['SKEIN_CATALOG', 'SKEIN_NO_SUCH'])).toThrow('no settings schema reads SKEIN_NO_SUCH');
  });

  it('rewrites a stale block of a page and leaves the text around it', () => {
    const page = 'intro\n\n<!-- settings: SKEIN_CATALOG -->\n| stale |\n<!-- end settings -->\n\nafter\n';
    expect(withSettingsTables(page)).toBe(`intro\n\n<!-- settings: SKEIN_CATALOG -->\n${settingsTableOf(['SKEIN_CATALOG'])}<!-- end settings -->\n\nafter\n`);
  });
});
