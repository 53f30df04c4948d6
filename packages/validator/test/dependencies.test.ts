/**
 * The analysis packages depend on the names module only, never on the authoring runtime (`@skein/core` brings zod and
 * the Temporal SDK): neither their package.json nor any of their sources names it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

const PACKAGES = ['discovery', 'validator'];

describe.each(PACKAGES)('@skein/%s', (name) => {
  const dir = path.join(REPO, 'packages', name);

  it('does not depend on @skein/core', () => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(Object.keys(pkg[field] ?? {})).not.toContain('@skein/core');
  });

  it('imports nothing from @skein/core in its sources', () => {
    const sources = (readdirSync(path.join(dir, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const importing = sources.filter((f) =>
      /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]@skein\/core(?:\/[^'"]*)?['"]|\bimport\(\s*['"]@skein\/core/m.test(
        readFileSync(path.join(dir, 'src', f), 'utf8'),
      ),
    );
    expect(importing).toEqual([]);
  });
});
