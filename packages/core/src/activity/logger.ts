/**
 * `Logger` in Node (steps, evaluators, hook files, unit tests): lines go to the worker's structured logger once
 * the worker has installed it (`setNodeLogSink`), which adds the running activity's ids; before that (plain Node,
 * unit tests) they go to the console.
 */
import { CONSOLE_METHOD, createLoggerWith, type LoggerApi, type LogRecord } from '../shared/logger.js';

/** Where the worker takes `Logger` lines written in Node. */
export type NodeLogSink = (record: LogRecord) => void;

const KEY = Symbol.for('skein.nodeLogSink');
const g = globalThis as unknown as Record<symbol, NodeLogSink | undefined>;

/**
 * Installs the worker's sink for `Logger` lines; shared by every copy of core.
 * @returns a function that removes it again, unless another sink has been installed since.
 */
export function setNodeLogSink(sink: NodeLogSink): () => void {
  g[KEY] = sink;
  return () => {
    if (g[KEY] === sink) g[KEY] = undefined;
  };
}

/** The authoring API's logger in Node: `Logger.info('message', { fields })`. */
export const Logger: LoggerApi = createLoggerWith((record) => {
  const sink = g[KEY];
  if (sink) sink(record);
  else console[CONSOLE_METHOD[record.level]](record.message, record.fields);
});
