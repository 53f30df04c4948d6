import { proxySinks, type Sinks } from '@temporalio/workflow';
import type { SerializedError } from '../hooks/types.js';
import type { LogRecord } from '../shared/logger.js';

/** Sinks through which workflow code reports to the worker's hooks (delivered after the activation, not during replay). */
export interface SkeinSinks extends Sinks {
  skein: {
    workflowStarted(input: unknown): void;
    workflowCompleted(output: unknown): void;
    workflowFailed(error: SerializedError): void;
    /** The run continued as new: it closed, with no output and no error (its trace is written; no hook runs). */
    workflowContinuedAsNew(): void;
    emit(name: string, payload: unknown): void;
    /** A `Logger` line written in workflow code. */
    log(record: LogRecord): void;
  };
}

/** The sink proxy for the current workflow. */
export const sinks = proxySinks<SkeinSinks>();
