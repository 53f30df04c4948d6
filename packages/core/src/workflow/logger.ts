/**
 * `Logger` in workflow code: each line is a sink call (`skein.log`), which the worker delivers after the
 * workflow activation and never during a replay, so a line is written once however often the code replays.
 * Outside a workflow execution (the workflow-safe entry loaded in plain Node) lines go to the console.
 */
import { inWorkflowContext } from '@temporalio/workflow';
import { CONSOLE_METHOD, createLoggerWith, type LoggerApi } from '../shared/logger.js';
import { sinks } from './sinks.js';

/** The authoring API's logger in workflow code: `Logger.info('message', { fields })`. */
export const Logger: LoggerApi = createLoggerWith((record) => {
  if (inWorkflowContext()) sinks.skein.log(record);
  else console[CONSOLE_METHOD[record.level]](record.message, record.fields);
});
