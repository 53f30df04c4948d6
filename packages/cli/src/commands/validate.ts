/**
 * `skein validate [dir]`: the validator, with exactly the flags, output formats and exit codes of
 * `validate-workflow-package` (0 clean, 1 errors, 2 usage, 3 internal error): arguments pass through to it, except
 * `--json`, which every `skein` command takes and which is the validator's `--format json` here.
 */
import type { Command } from 'commander';
import { clientConventions } from '../client/common.js';

/** Adds `validate` to `program`. */
export function registerValidateCommand(program: Command): void {
  clientConventions(program.command('validate'))
    .description('check a workflow package or project without running it (the flags of validate-workflow-package; skein validate --help)')
    .argument('[args...]', 'directory and options, as for validate-workflow-package')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (args: string[]) => {
      // The command alone (not the package's index, which loads the whole analysis): a `--cache` run answered from
      // the cache then loads no parser and no rule.
      const { run } = await import('@skein/validator/cli');
      process.exitCode = await run(
        args.map((a) => (a === '--json' ? '--format=json' : a)),
        {
          stdout: (text) => process.stdout.write(text.replace(/^Usage: validate-workflow-package/, 'Usage: skein validate')),
          stderr: (text) => process.stderr.write(text),
          cwd: process.cwd(),
          color: process.stdout.isTTY === true && !process.env.NO_COLOR,
        },
      );
    });
}
