/**
 * The `init` command line, shared by `skein init` and `npm create skein` (the `create-skein` bin): arguments,
 * flags, prompts on a terminal, and what is printed.
 */
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { PACKAGE_MANAGERS, ScaffoldError, scaffold, type PackageManager } from './scaffold.js';

/** Flags of the init command, as commander parses them. */
export interface InitFlags {
  package?: boolean;
  name?: string;
  packageManager?: PackageManager;
  install: boolean;
  force?: boolean;
}

function packageManager(value: string): PackageManager {
  if (!(PACKAGE_MANAGERS as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${PACKAGE_MANAGERS.join(', ')}`);
  return value as PackageManager;
}

/** Whether questions may be asked: only when both stdin and stdout are a terminal. */
function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/**
 * Asks for what the flags left open, on one terminal session (one readline interface, so typed-ahead answers are
 * kept). Ctrl-D or Ctrl-C answers `undefined`: nothing is written.
 */
async function askMissing(dir: string | undefined, name: string | undefined, kind: string): Promise<{ dir: string; name: string } | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const ask = async (question: string, fallback: string) => (await rl.question(`${question} (${fallback}) `)).trim() || fallback;
  try {
    const folder = dir ?? (await ask(`Folder for the new ${kind}?`, 'my-workflows'));
    return { dir: folder, name: name ?? (await ask('Package name?', path.basename(path.resolve(folder)))) };
  } catch (err) {
    if ((err as Error).name === 'AbortError') return undefined;
    throw err;
  } finally {
    rl.close();
  }
}

/**
 * Runs the init command: scaffolds, prints the next steps, and sets `process.exitCode`: 0 done, 1 the files are
 * written but the install failed (the command to re-run is printed), 2 refused (bad name, folder holding files),
 * 130 the questions were cancelled (Ctrl-D, Ctrl-C).
 * Asks for the folder and the name only on a terminal and only when they were not given.
 */
export async function runInit(dirArg: string | undefined, flags: InitFlags): Promise<void> {
  let dir = dirArg;
  let name = flags.name;
  if ((dir === undefined || name === undefined) && interactive()) {
    const answers = await askMissing(dir, name, flags.package ? 'package' : 'project');
    if (!answers) {
      process.stderr.write('\ncancelled: nothing written\n');
      process.exitCode = 130;
      return;
    }
    ({ dir, name } = answers);
  }
  dir ??= '.';
  try {
    const result = await scaffold({
      dir,
      kind: flags.package ? 'package' : 'project',
      name,
      packageManager: flags.packageManager,
      install: flags.install,
      force: flags.force,
      log: (line) => process.stdout.write(`${line}\n`),
    });
    const rel = path.relative(process.cwd(), result.dir) || '.';
    const cd = rel === '.' ? '' : `cd ${rel} && `;
    const run = result.packageManager === 'npm' ? 'npm run' : result.packageManager;
    if (result.install === 'failed') {
      process.stderr.write(`error: ${result.installCommand} failed; the files are written. Run it again: ${cd}${result.installCommand}\n`);
      process.exitCode = 1;
      return;
    }
    const steps = [
      ...(rel === '.' ? [] : [`cd ${rel}`]),
      ...(result.install === 'skipped' ? [result.installCommand] : []),
      ...(flags.package
        ? [`${run} build`, `${run} validate`, `${result.packageManager} test`]
        : [`${run} dev`, "npx skein workflow run greet --input '{}'   # in another terminal", `${result.packageManager} test`]),
    ];
    process.stdout.write(`\nCreated ${flags.package ? 'workflow package' : 'project'} ${result.name}. Next:\n${steps.map((s) => `  ${s}`).join('\n')}\n`);
  } catch (err) {
    if (!(err instanceof ScaffoldError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    process.exitCode = 2;
  }
}

/**
 * Adds the init arguments, flags and action to `command` (`skein init`, or the `create-skein` program).
 * @returns `command`.
 */
export function configureInit(command: Command): Command {
  return (
    command
      // A usage error (an unknown option, a bad --package-manager) writes nothing: exit 2, as a refusal does.
      .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
      .description('scaffold a TypeScript Skein project (or, with --package, a publishable workflow package)')
      .argument('[dir]', 'folder to create (default: asked on a terminal, else the current folder)')
      .option('--package', 'a publishable workflow package instead of a project')
      .option('--name <name>', 'npm package name (default: the folder name)')
      .option('--package-manager <pm>', `one of ${PACKAGE_MANAGERS.join(', ')} (default: the one running this command, else npm)`, packageManager)
      .option('--no-install', 'write the files only; do not install the dependencies')
      .option('--force', 'write into a folder that holds files, overwriting the template files there')
      .action(async (dir: string | undefined, flags: InitFlags) => runInit(dir, flags))
  );
}
