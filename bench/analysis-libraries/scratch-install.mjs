/**
 * Installs packages the analysis does not depend on into a scratch folder (bench/.generated/analysis-libraries,
 * gitignored) with the ordinary npm client, once, and reports their weight: how many packages the install holds and
 * their size on disk. The comparison scripts of this folder load the candidate libraries from there, so measuring
 * them adds nothing to the repository's dependencies.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Every `package.json` of an installed package under `modules` (nested node_modules included). */
function installedPackages(modules, out = []) {
  if (!fs.existsSync(modules)) return out;
  for (const name of fs.readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dir = join(modules, name);
    if (name.startsWith('@')) {
      installedPackages(dir, out);
      continue;
    }
    if (fs.existsSync(join(dir, 'package.json'))) out.push(dir);
    installedPackages(join(dir, 'node_modules'), out);
  }
  return out;
}

/** Bytes of the files under `dir`. */
function bytes(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += bytes(p);
    else if (e.isFile()) total += fs.statSync(p).size;
  }
  return total;
}

/**
 * Installs `specs` (npm package specs) into their own scratch folder `name` unless already there.
 * @returns `require` rooted in that folder, and the install's weight (`packages`: count, `bytes`: size on disk)
 */
export function scratchInstall(name, specs) {
  const dir = join(here, '..', '.generated', 'analysis-libraries', name);
  if (!fs.existsSync(join(dir, 'node_modules'))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `scratch-${name}`, private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...specs], { cwd: dir, stdio: 'inherit' });
  }
  const modules = join(dir, 'node_modules');
  return { require: createRequire(join(dir, 'package.json')), weight: { packages: installedPackages(modules).length, bytes: bytes(modules) } };
}

/**
 * Every file named `name` under fixtures/ and examples/, absolute paths sorted (Node's `fs.globSync`); folders named
 * in `skip` are not entered (`.skein` state folders by default).
 */
export function fixtureFiles(repo, name, skip = ['.skein']) {
  const found = fs.globSync(`{fixtures,examples}/**/${name}`, { cwd: repo, exclude: (d) => skip.includes(typeof d === 'string' ? basename(d) : d.name) });
  return found.map((f) => join(repo, f)).sort();
}

/** Every package.json under fixtures/ and examples/ (fixtures' own node_modules included; not .skein state folders). */
export function fixturePackageJsons(repo) {
  return fixtureFiles(repo, 'package.json', ['.skein', '.git']);
}

/** The median of `values`. */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
