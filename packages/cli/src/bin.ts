#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { Command, InvalidArgumentError } from 'commander';
import { configureInit } from 'create-skein';
import { registerClientCommands } from './client/register.js';
import { registerDeployCommand } from './commands/deploy.js';
import type { DevOptions } from './commands/dev.js';
import type { ReplayFlags } from './commands/replay.js';
import { clientConventions } from './client/common.js';

// The server-side commands load the worker and the API (Temporal's native bridge, webpack, Koa): imported only
// when one of them runs, so `skein workflow …` starts in a fraction of the time (bench/cli-client).
// Node's on-disk compile cache (each entry checked against its module's source, so an edited file compiles
// again) spares a restarted worker compiling Temporal's SDK and Skein's packages anew. Threads and child
// processes (the workflow and validation threads) take it from NODE_COMPILE_CACHE, so it is set for them.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=<dir> moves it (default: the OS temp dir).
// The one-shot commands that import a whole project (`build`, `replay`) leave it off unless NODE_COMPILE_CACHE asks
// for it: Node writes an entry for every module compiled when the process exits, and for a 1,000-workflow project in
// a fresh container (an empty cache, thrown away with it) that took 4-5 s after the build was done, while a warm
// cache made the build no faster (bench/skein-build/README.md).
const ONE_SHOT_PROJECT_COMMANDS = new Set(['build', 'replay']);
const compileCache = ONE_SHOT_PROJECT_COMMANDS.has(process.argv[2] ?? '') ? undefined : module.enableCompileCache?.();
if (compileCache?.directory) process.env.NODE_COMPILE_CACHE ??= compileCache.directory;

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number');
  return n;
}

// Every command inherits the conventions when it is made: a usage error (unknown option, missing argument) exits 2,
// with a pointer to --help (docs/cli.md, "Exit codes").
const program = clientConventions(new Command('skein').description('Publish, check and run durable workflows on Temporal.').version(version));

program
  .command('dev')
  .description('start a Temporal dev server, a worker on the project and the API; reload the worker on every edit (Ctrl-C stops all)')
  .argument('[projectDir]', 'project directory', '.')
  .option('--ui <port>', 'serve the Temporal Web UI on this port', port)
  .option('--temporal-port <port>', "gRPC port of the project's own dev server (default 7233, or a free port when taken)", port)
  .option('--temporal-address <host:port>', 'use this running Temporal server instead of starting one (default TEMPORAL_ADDRESS)')
  .option('--port <port>', 'API port (default PORT, else 3001, or a free port when taken)', port)
  .option('--data-dir <dir>', 'dev state: the dev server SQLite file, traces (default <projectDir>/.skein)')
  .option('--no-watch', 'do not watch the project for changes')
  .action(async (dir: string, opts: DevOptions) => (await import('./commands/dev.js')).devCommand(dir, opts));

program
  .command('worker')
  .description('serve the workflows of a project, or of a build made by "skein build", on the catalog task queue (SKEIN_CATALOG, default main)')
  .argument('[projectDir]', 'project directory, or build directory', '.')
  .option('--no-promote', "do not make this build the current version once it polls; leave it to 'skein deploy promote' (as SKEIN_PROMOTE=manual)")
  .option('--exit-when-drained', 'stop once Temporal reports this build drained and it is neither current nor ramping')
  .option('--metrics-port <port>', 'serve Prometheus metrics on this port (as SKEIN_METRICS_PORT; host SKEIN_METRICS_HOST, default 127.0.0.1)', port)
  .action(async (dir: string, opts: { promote?: boolean; exitWhenDrained?: boolean; metricsPort?: number }) =>
    (await import('./commands/worker.js')).workerCommand(dir, opts),
  );

program
  .command('build')
  .description('validate the project and bundle its workflow code ahead of time into a build that "skein worker <buildDir>" serves')
  .argument('[projectDir]', 'project directory', '.')
  .option('--out <dir>', 'build directory (default <projectDir>/.skein/build)')
  .option('--baseline <dir>', 'first compare each workflow with a deployed build (or a checkout): refuse incompatible changes of auto-upgrade workflows')
  .action(async (dir: string, opts: { out?: string; baseline?: string }) => (await import('./commands/build.js')).buildCommand(dir, opts));

program
  .command('replay')
  .description('replay run histories against the workflow code of a project or build; exit 1 on an incompatible change (the check before a deploy)')
  .argument('[projectDir]', 'project directory, or build directory', '.')
  .option('--workflow <name>', 'only runs of this workflow type')
  .option('--limit <n>', 'at most this many runs, the most recent first (default 100)')
  .option(
    '--histories <path>',
    'replay these JSON history files (a file or a directory; "skein workflow history <id> --json" output) instead of runs read from the engine',
  )
  .addHelpText(
    'after',
    '\nWithout --histories: the runs of the catalog SKEIN_CATALOG (default main) on TEMPORAL_ADDRESS, closed and open.\nExit codes: 0 every history replays (or nothing to replay), 1 a history does not replay, 2 usage error.',
  )
  .action(async (dir: string, opts: ReplayFlags) => (await import('./commands/replay.js')).replayCommand(dir, opts));

program
  .command('api')
  .description('serve the HTTP API on PORT (default 3001)')
  .action(async () => (await import('./commands/api.js')).apiCommand());

program
  .command('temporal')
  .description('find (path) or install (install) the temporal CLI used for the embedded dev server')
  .argument('<action>', 'path | install')
  .action(async (action: string) => {
    if (action !== 'path' && action !== 'install') {
      process.stderr.write('skein: temporal takes "path" or "install"\n');
      process.exit(2);
    }
    return (await import('./commands/temporal.js')).temporalCommand(action);
  });

configureInit(program.command('init'));

registerClientCommands(program);
registerDeployCommand(program);

await program.parseAsync();
