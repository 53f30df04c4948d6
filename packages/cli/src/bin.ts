#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { registerClientCommands } from './client/register.js';
import { apiCommand } from './commands/api.js';
import { devCommand } from './commands/dev.js';
import { temporalCommand } from './commands/temporal.js';
import { workerCommand } from './commands/worker.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be a port number');
  return n;
}

const program = new Command('skein').description('Publish, check and run durable workflows on Temporal.').version('0.1.0');

program
  .command('dev')
  .description('start a Temporal dev server, a worker on the project and the API (Ctrl-C stops all three)')
  .argument('[projectDir]', 'project directory', '.')
  .option('--ui <port>', 'serve the Temporal Web UI on this port', port)
  .option('--temporal-port <port>', 'gRPC port of the embedded dev server', port, 7233)
  .option('--data-dir <dir>', 'dev state: the dev server SQLite file and traces (default <projectDir>/.skein)')
  .action((dir: string, opts: { ui?: number; temporalPort: number; dataDir?: string }) => devCommand(dir, opts));

program
  .command('worker')
  .description('serve the workflows of a project on the catalog task queue (SKEIN_CATALOG, default main)')
  .argument('[projectDir]', 'project directory', '.')
  .action((dir: string) => workerCommand(dir));

program.command('api').description('serve the HTTP API on PORT (default 3001)').action(() => apiCommand());

program
  .command('temporal')
  .description('find (path) or install (install) the temporal CLI used for the embedded dev server')
  .argument('<action>', 'path | install')
  .action((action: string) => {
    if (action !== 'path' && action !== 'install') {
      process.stderr.write('skein: temporal takes "path" or "install"\n');
      process.exit(2);
    }
    return temporalCommand(action);
  });

registerClientCommands(program);

await program.parseAsync();
