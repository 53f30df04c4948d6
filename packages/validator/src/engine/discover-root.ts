/**
 * Runs discovery for the validated root. A project root is discovered as a project. A root that is itself
 * an exposed workflow package (the expose flag, SPEC rule 4) is discovered the way a worker would see it
 * once installed: from a throw-away host project whose `node_modules/<name>` links to the root, so
 * discovery checks its entry point and static re-exports (SPEC rules 2, 3) and registers only the
 * workflows the entry reaches. The host lives in the OS temp folder and is removed afterwards; nothing is
 * written into the package. Discovery reads through `confineDiscoveryFs`, so it cannot follow a symlink out
 * of the package either.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Manifest } from '@skein/discovery';
import { isInside } from '../fs/confined-fs.js';
import { discover } from '../discovery.js';
import { confineDiscoveryFs } from '../fs/discovery-fs.js';

/** npm package names (what may safely become a path below the host's `node_modules`). */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * Discovers `realRoot`; as an installed package when `asPackage`.
 * @param packageName the root's package.json `name` (any value; unusable names fall back to a fixed one)
 */
export async function discoverRoot(realRoot: string, asPackage: boolean, packageName: unknown, maxFileBytes: number): Promise<Manifest> {
  const fs = confineDiscoveryFs([realRoot]);
  const host = asPackage ? await createHost(realRoot, packageName) : null;
  if (host === null) return discover(realRoot, { maxFileBytes, fs });
  try {
    const manifest = await discover(host, { maxFileBytes, ceiling: host, fs });
    return { ...manifest, root: realRoot, diagnostics: manifest.diagnostics.filter((d) => !isInside(host, d.file)) };
  } finally {
    await fsp.rm(host, { recursive: true, force: true });
  }
}

/**
 * Creates the host project (`package.json` and `node_modules/<name> -> realRoot`) in the OS temp folder.
 * Returns null when the temp folder is not writable: the root is then discovered as a project.
 */
async function createHost(realRoot: string, packageName: unknown): Promise<string | null> {
  let host: string;
  try {
    host = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'skein-validate-')));
  } catch {
    return null;
  }
  try {
    const name = typeof packageName === 'string' && NPM_NAME.test(packageName) ? packageName : 'skein-validated-package';
    const link = path.join(host, 'node_modules', name);
    await fsp.mkdir(path.dirname(link), { recursive: true });
    await fsp.writeFile(path.join(host, 'package.json'), JSON.stringify({ name: 'skein-validate-host', private: true, dependencies: { [name]: '*' } }));
    await fsp.symlink(realRoot, link, 'dir');
    return host;
  } catch {
    await fsp.rm(host, { recursive: true, force: true });
    return null;
  }
}
