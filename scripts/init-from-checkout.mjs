/**
 * `npm run init:local -- <dir> [--package]`: what `npm create skein <dir>` does once Skein is on npm, from this clone
 * (run by its npm script after `npm run build`): scaffolds with the workspace's `create-skein`, packs the workspace's
 * packages into `<dir>/.skein-packages/`, points the new package.json at them (`workspace-tarballs.mjs`) and installs.
 * Everything else comes from the npm registry. Exit codes: the scaffold's (0 done, 2 refused), 1 when packing or the
 * install failed (the files stay; the message says what to run again).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { packWorkspace, repoRoot, useTarballs } from './workspace-tarballs.mjs';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('-'));
if (!dir) {
  process.stderr.write('usage: npm run init:local -- <dir> [--package]\n');
  process.exit(2);
}
const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), dir);
const scaffold = spawnSync(
  process.execPath,
  [path.join(repoRoot, 'packages/create-skein/bin/create-skein.js'), target, ...args.filter((a) => a !== dir), '--no-install'],
  {
    stdio: ['inherit', 'ignore', 'inherit'],
  },
);
if (scaffold.status !== 0) process.exit(scaffold.status ?? 1);
try {
  const packages = path.join(target, '.skein-packages');
  mkdirSync(packages, { recursive: true });
  process.stdout.write(`packing the workspace's packages into ${packages} …\n`);
  useTarballs(target, packWorkspace(packages));
  appendFileSync(path.join(target, '.gitignore'), '.skein-packages/\n');
  process.stdout.write(`installing in ${target} (npm install) …\n`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: target, stdio: 'inherit' });
} catch (err) {
  process.stderr.write(`error: ${err.message.split('\n')[0]}; the files are written. Run it again: cd ${target} && npm install\n`);
  process.exit(1);
}
const rel = path.relative(process.env.INIT_CWD ?? process.cwd(), target) || '.';
const next = args.includes('--package')
  ? ['npm run build', 'npm run validate', 'npm test']
  : ['npm run dev', "npx skein workflow run greet --input '{}'   # in another terminal", 'npm test'];
process.stdout.write(`\nCreated ${target}. Next:\n  cd ${rel}\n${next.map((s) => `  ${s}`).join('\n')}\n`);
