/** `skein workflow <command>`: the command-line client of the HTTP API. */
import type { Command } from 'commander';
import { clientConventions } from '../../client/common.js';
import { registerBatchCommand } from './batch.js';
import { registerControlCommands } from './control.js';
import { registerFeedbackCommand } from './feedback.js';
import { registerHistoryCommand } from './history.js';
import { registerInspectCommands } from './inspect.js';
import { registerRunCommands } from './run.js';
import { registerTraceCommand } from './trace.js';

/** Adds `workflow` and its subcommands (run, start, status, result, input, list, history, signal, feedback, batch, …) to `program`. */
export function registerWorkflowCommand(program: Command): void {
  const workflow = clientConventions(program.command('workflow'))
    .description('run, inspect and control workflow executions through the HTTP API (--url, SKEIN_API_URL)')
    .addHelpText('after', '\nEvery command takes --url, --token and --json; see skein workflow <command> --help.');
  registerRunCommands(workflow);
  registerInspectCommands(workflow);
  registerHistoryCommand(workflow);
  registerControlCommands(workflow);
  registerFeedbackCommand(workflow);
  registerTraceCommand(workflow);
  registerBatchCommand(workflow);
}
