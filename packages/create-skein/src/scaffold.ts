/**
 * Writing a new Skein project or workflow package from the templates shipped in this package
 * (`templates/project`, `templates/package`), then installing its dependencies.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import validateName from 'validate-npm-package-name';

/** What to scaffold: an application project (served by `skein dev`) or a publishable workflow package. */
export type ScaffoldKind = 'project' | 'package';

/** The package managers whose `install` the scaffolder runs. */
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** Options of `scaffold()`. */
export interface ScaffoldOptions {
  /** Target folder (created when missing); relative paths resolve against `process.cwd()`. */
  dir: string;
  kind: ScaffoldKind;
  /** npm package name; default: the folder's base name. Must follow npm's rules for new packages. */
  name?: string;
  /** Default: the one running this command (`npm_config_user_agent`), else npm. */
  packageManager?: PackageManager;
  /** Run `<packageManager> install` after writing the files; default true. */
  install?: boolean;
  /** Write into a folder that holds files, overwriting the template's files there; default false. */
  force?: boolean;
  /** Receives progress lines (no trailing newline). */
  log?: (line: string) => void;
}

/** What `scaffold()` did. */
export interface ScaffoldResult {
  /** Absolute path of the folder written. */
  dir: string;
  name: string;
  packageManager: PackageManager;
  /** The files written, relative to `dir`, sorted. */
  files: string[];
  /** `skipped` with `install: false`; `failed` when the install command exited non-zero or could not start. */
  install: 'done' | 'skipped' | 'failed';
  /** The command that installs the dependencies, to run in `dir` (e.g. `npm install`). */
  installCommand: string;
}

/** A request the scaffolder refuses before writing anything (bad name, folder holding files). */
export class ScaffoldError extends Error {
  override name = 'ScaffoldError';
}

const templatesRoot = fileURLToPath(new URL('../templates/', import.meta.url));

/** This package's version: the `@skein/*` versions written into the new package.json. */
export function skeinVersion(): string {
  return ownPackageJson().version;
}

/**
 * This package's package.json: its `version` (the `@skein/*` versions of a new project) and `engines.node` (the
 * Node.js versions Skein runs on, e.g. `>=24.15.0`: a new project's `engines.node`).
 */
function ownPackageJson(): { version: string; engines: { node: string } } {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string; engines: { node: string } };
}

/**
 * Checks `name` against npm's rules for new package names.
 * @returns the reasons it is refused (npm's own wording), empty when valid.
 */
export function packageNameProblems(name: string): string[] {
  const result = validateName(name);
  return result.validForNewPackages ? [] : [...(result.errors ?? []), ...(result.warnings ?? [])];
}

/** The package manager that runs this process (`npm create`, `pnpm create`, ...), from `npm_config_user_agent`. */
export function detectPackageManager(userAgent = process.env.npm_config_user_agent ?? ''): PackageManager {
  const name = userAgent.split('/')[0];
  return (PACKAGE_MANAGERS as readonly string[]).includes(name ?? '') ? (name as PackageManager) : 'npm';
}

/**
 * A template file's name on disk → its name in the new folder: `_gitignore` → `.gitignore` (npm leaves dotfiles
 * out of tarballs), `package.json.tmpl` → `package.json` (a nested package.json would be read as a package's).
 */
function targetName(segment: string): string {
  const name = segment.endsWith('.tmpl') ? segment.slice(0, -'.tmpl'.length) : segment;
  return name.startsWith('_') ? `.${name.slice(1)}` : name;
}

async function templateFiles(kind: ScaffoldKind): Promise<Array<{ from: string; to: string }>> {
  const root = path.join(templatesRoot, kind);
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const from = path.join(e.parentPath, e.name);
      const to = path.relative(root, from).split(path.sep).map(targetName).join('/');
      return { from, to };
    })
    .sort((a, b) => a.to.localeCompare(b.to));
}

/**
 * Writes a project or a workflow package into `options.dir`, then (unless `install: false`) installs its
 * dependencies. An install that fails leaves the files in place and answers `install: 'failed'` with the command
 * to run again; it does not throw.
 * @throws ScaffoldError, before writing anything, when the name breaks npm's rules, `dir` is a file, or the folder
 *   holds files (other than `.git`) and `force` is not set; the message names the files that would be overwritten.
 */
export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const log = options.log ?? (() => {});
  const dir = path.resolve(options.dir);
  const name = options.name ?? path.basename(dir);
  const problems = packageNameProblems(name);
  if (problems.length > 0) {
    const hint = options.name === undefined ? ` (taken from the folder name; choose one with --name)` : '';
    throw new ScaffoldError(`invalid package name "${name}"${hint}: ${problems.join('; ')}`);
  }
  const files = await templateFiles(options.kind);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ScaffoldError(`${dir} is a file, not a folder`);
  const existing = existsSync(dir) ? (await readdir(dir)).filter((f) => f !== '.git') : [];
  if (existing.length > 0 && !options.force) {
    const overwritten = files.map((f) => f.to).filter((f) => existsSync(path.join(dir, f)));
    const what =
      overwritten.length > 0
        ? `it would overwrite ${overwritten.join(', ')}`
        : `it holds ${existing.slice(0, 5).join(', ')}${existing.length > 5 ? `, … (${existing.length} entries)` : ''}`;
    throw new ScaffoldError(`${dir} is not empty: ${what}; choose an empty folder or pass --force`);
  }
  const { version, engines } = ownPackageJson();
  const packageManager = options.packageManager ?? detectPackageManager();
  for (const file of files) {
    const text = (await readFile(file.from, 'utf8'))
      .replaceAll('__NAME__', name)
      .replaceAll('__SKEIN_VERSION__', version)
      .replaceAll('__NODE_ENGINE__', engines.node);
    const target = path.join(dir, file.to);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  log(`wrote ${files.length} files to ${dir}`);
  const installCommand = `${packageManager} install`;
  let install: ScaffoldResult['install'] = 'skipped';
  if (options.install !== false) {
    log(`running ${installCommand} in ${dir}`);
    install = (await runInstall(packageManager, dir)) ? 'done' : 'failed';
  }
  return { dir, name, packageManager, files: files.map((f) => f.to), install, installCommand };
}

function runInstall(packageManager: PackageManager, cwd: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(packageManager, ['install'], { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}
