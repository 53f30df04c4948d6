/**
 * What every client command (`skein workflow …`, `skein catalog`) shares: the `--url`/`--token`/`--json`
 * options, the exit codes, and the one place that turns a failure into an `error: …` line and an exit code.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_API_URL, SkeinApiError, SkeinClient, SkeinConnectionError } from '@skein/client';
import { inert, inertJson } from './inert.js';

/** Exit codes of the client commands. */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** The workflow failed, was canceled or terminated, or timed out. */
  workflow: 1,
  /** Usage error: unknown option, missing argument, malformed JSON or duration. */
  usage: 2,
  /** The API is unreachable or answered an error. */
  api: 3,
} as const;

/**
 * True for closing statuses that make a command exit 1: failed, canceled (`cancelled` in result responses),
 * terminated and timed out. `completed` and `continued_as_new` (the execution goes on in a new run) are not.
 */
export function isFailedStatus(status: string): boolean {
  return status === 'failed' || status === 'canceled' || status === 'cancelled' || status === 'terminated' || status === 'timed_out';
}

/** Options every client command takes. */
export interface ClientFlags {
  url: string;
  token?: string;
  json?: boolean;
}

/** A usage error found by a command itself (bad JSON, conflicting inputs): exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The run did not end well: exit code 1, after the command printed what happened. */
export class WorkflowOutcomeError extends Error {
  override name = 'WorkflowOutcomeError';
}

const ENV_HELP = `
Environment:
  SKEIN_API_URL    the API's base URL (default ${DEFAULT_API_URL}); --url wins
  SKEIN_API_TOKEN  bearer token when the API requires one (SKEIN_API_TOKEN on the server); --token wins
  NO_COLOR         plain output even on a terminal

Exit codes: 0 success, 1 the workflow failed / was canceled / was terminated / timed out, 2 usage error,
3 API unreachable or API error (printed as "error: <type>: <message>").`;

/** Commander errors (unknown option, missing argument…) exit 2; `--help` and `--version` exit 0. */
function exitOnCommanderError(err: CommanderError): never {
  process.exit(err.exitCode === 0 ? EXIT.ok : EXIT.usage);
}

/** Applies the client commands' conventions to `cmd`: usage errors exit 2 and help after an error. Returns `cmd`. */
export function clientConventions(cmd: Command): Command {
  return cmd.exitOverride(exitOnCommanderError).showHelpAfterError('(add --help for usage)');
}

/** Adds `--url`, `--token`, `--json` and the environment/exit-code help to a command. Returns `cmd`. */
export function withClientOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--url <url>', "the API's base URL").env('SKEIN_API_URL').default(DEFAULT_API_URL))
    .addOption(new Option('--token <token>', 'bearer token for an API that requires one').env('SKEIN_API_TOKEN'))
    .option('--json', 'print JSON for scripts instead of human output')
    .addHelpText('after', ENV_HELP);
}

/** `<workflowId> [--run RID]` plus the client options. */
export function runTarget(cmd: Command): Command {
  return withClientOptions(cmd.argument('<workflowId>', 'the workflow execution id').option('--run <runId>', 'target this run instead of the latest'));
}

/** The client for the command's `--url` and `--token`. Throws UsageError on a malformed URL. */
export function clientFrom(flags: ClientFlags): SkeinClient {
  try {
    return new SkeinClient({ url: flags.url, token: flags.token || undefined });
  } catch {
    throw new UsageError(`--url (or SKEIN_API_URL) "${flags.url}" is not a URL`);
  }
}

/** Parses a JSON option value; a malformed one is a UsageError naming `what`. */
export function parseJson(value: string, what: string): unknown {
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new UsageError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Reads JSON from a file, or from standard input when `file` is `-`. */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let content: string;
  try {
    content = file === '-' ? await text(process.stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${what} ${file === '-' ? 'from standard input' : `"${file}"`}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return parseJson(content, what);
}

/** A commander argument parser for a positive integer within `[min, max]`. */
export function intBetween(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

/** Writes `error: <line>` to stderr; `line` is made inert (API messages quote ids and names). */
function writeError(line: string): void {
  process.stderr.write(`error: ${inert(line)}\n`);
}

/**
 * Reports a failure on stderr and returns its exit code: API errors as `error: <type>: <message>` (with the
 * validation issues, one a line), connection errors and usage errors as `error: <message>`. With `--json`, an
 * API error's body is also printed on stdout for scripts. Unexpected errors print one line, never a stack.
 */
export function reportFailure(err: unknown, json: boolean | undefined): number {
  if (err instanceof WorkflowOutcomeError) return EXIT.workflow;
  if (err instanceof UsageError) {
    writeError(err.message);
    return EXIT.usage;
  }
  if (err instanceof SkeinApiError) {
    writeError(`${err.type}: ${err.message}`);
    for (const issue of err.issues ?? []) process.stderr.write(`  - ${inert(issue.path.join('.')) || '(root)'}: ${inert(issue.message)}\n`);
    if (json)
      process.stdout.write(
        `${inertJson({ error: err.type, message: err.message, workflowId: err.workflowId, ...(err.issues ? { issues: err.issues } : {}) })}\n`,
      );
    if (err.type === 'WorkflowExecutionTimedOutError') {
      if (err.workflowId) process.stderr.write(`the execution keeps running: skein workflow result ${inert(err.workflowId)}\n`);
      return EXIT.workflow;
    }
    return EXIT.api;
  }
  if (err instanceof SkeinConnectionError) {
    writeError(err.message);
    return EXIT.api;
  }
  writeError(err instanceof Error ? err.message : String(err));
  return EXIT.api;
}

let pipeGuarded = false;

/** A reader that closed stdout early (`skein workflow history x | head`) ends the command quietly. */
function exitQuietlyOnClosedPipe(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw err;
  });
}

/**
 * Wraps a command action: sets `process.exitCode` from its result (default 0) or from {@link reportFailure}.
 * The last argument commander passes (the Command) supplies the flags for `--json`.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<number | void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const cmd = args[args.length - 1] as Command;
    exitQuietlyOnClosedPipe();
    try {
      process.exitCode = (await fn(...args)) ?? EXIT.ok;
    } catch (err) {
      process.exitCode = reportFailure(err, cmd.opts<ClientFlags>().json);
    }
  };
}
