import { EngineUnavailableError } from '@skein/api';
import { WorkerStartupError } from '@skein/worker';
import { TemporalNotFoundError } from '@skein/dev-server';

/** Context for `explainError()`: what the command was doing. */
export interface ExplainContext {
  /** The API's listen address when the error may be a port conflict, `host:port`. */
  listen?: string;
  /** What set the port, named in the fix: `PORT` (the default) or a flag such as `--port`. */
  portSetting?: string;
}

/**
 * The one line a person needs for a startup failure: what went wrong and the fix. Known causes get a
 * specific line (a port in use, an unreachable engine, a missing `temporal` binary); an invalid project keeps
 * the validator's full report (several lines, every finding); anything else is its message's first line.
 * Never a stack trace, never the transport's internal error text.
 */
export function explainError(err: unknown, context: ExplainContext = {}): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    const where = context.listen ?? `${(e as { address?: string }).address ?? ''}:${(e as { port?: number }).port ?? ''}`;
    const setting = context.portSetting ?? 'PORT';
    const fix = setting.startsWith('--') ? `pass another ${setting}` : `set ${setting} to another port (${setting}=0 picks a free one)`;
    return `${where} is already in use: stop the process using it, or ${fix}`;
  }
  if (e?.code === 'EACCES' && context.listen) {
    return `not allowed to listen on ${context.listen}: choose a ${context.portSetting ?? 'PORT'} above 1023`;
  }
  if (err instanceof TemporalNotFoundError) {
    return `${firstLine(err.message)} Fix: run "npx skein temporal install" (needs Go or Python with internet access), or set TEMPORAL_CLI_PATH to a temporal binary.`;
  }
  const unreachable = /^(Cannot reach (the )?Temporal( server)? at|Temporal server at \S+ does not answer)/.exec(e?.message ?? '');
  if ((err instanceof EngineUnavailableError || err instanceof WorkerStartupError) && unreachable) {
    const address = /at (\S+?):? /.exec(e.message)?.[1] ?? 'the configured address';
    return `cannot reach the Temporal server at ${address}: start one ("skein dev" runs its own) or set TEMPORAL_ADDRESS to a running server`;
  }
  if (err instanceof WorkerStartupError) return err.message;
  return firstLine(e?.message ?? String(err));
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
