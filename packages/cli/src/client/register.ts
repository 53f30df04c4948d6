/** Registers the API client commands (`workflow`, `catalog`, `schedule`) and `validate` on the `skein` program. */
import type { Command } from 'commander';
import { registerCatalogCommand } from '../commands/catalog.js';
import { registerScheduleCommand } from '../commands/schedule.js';
import { registerValidateCommand } from '../commands/validate.js';
import { registerWorkflowCommand } from '../commands/workflow/index.js';
import { clientConventions } from './common.js';

/** Adds `skein workflow …`, `skein catalog`, `skein schedule …` and `skein validate`; usage errors of the program exit 2. */
export function registerClientCommands(program: Command): void {
  clientConventions(program);
  registerWorkflowCommand(program);
  registerCatalogCommand(program);
  registerScheduleCommand(program);
  registerValidateCommand(program);
}
