/** `skein workflow run` and `skein workflow start`. */
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import ms from 'ms';
import yoctoSpinner from 'yocto-spinner';
import type { RunResponse } from '@skein/client';
import {
  action,
  clientFrom,
  isFailedStatus,
  parseJson,
  readJsonFile,
  UsageError,
  withClientOptions,
  WorkflowOutcomeError,
  type ClientFlags,
} from '../../client/common.js';
import { formatDuration, inert, keyValues, out, outcomeLine, outJson, prettyJson } from '../../client/output.js';

interface StartFlags extends ClientFlags {
  input?: string;
  inputFile?: string;
  catalog?: string;
  id?: string;
  onConflict?: 'fail' | 'use-existing' | 'terminate-existing';
  onClosed?: 'allow' | 'allow-failed-only' | 'reject';
  idempotencyKey?: string;
  startDelay?: string | number;
}

interface RunFlags extends StartFlags {
  timeout?: number;
}

/** Bounds of `timeout` in `POST /workflow/run` (integer ms, 250 to 3 600 000). */
const MIN_WAIT_MS = 250;
const MAX_WAIT_MS = 3_600_000;

/**
 * Parses `--timeout`: a duration in the `ms` format Temporal uses (`30s`, `5m`, `1h`) or plain milliseconds.
 * @returns milliseconds, 250 to 3 600 000 (the range `timeout` of `POST /workflow/run` accepts)
 * @throws InvalidArgumentError (a usage error) otherwise
 */
export function duration(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : ms(value as ms.StringValue);
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new InvalidArgumentError('must be a duration such as 30s, 5m or 1h');
  if (n < MIN_WAIT_MS || n > MAX_WAIT_MS) throw new InvalidArgumentError('must be from 250ms to 1h');
  return Math.round(n);
}

/** The workflow input from `--input`, `--input-file` or a `-` argument (standard input); absent = no input. */
async function readInput(dash: string | undefined, flags: StartFlags): Promise<{ input?: unknown }> {
  if (dash !== undefined && dash !== '-') throw new UsageError(`unexpected argument "${dash}" (pass the input with --input, --input-file or "-")`);
  const given = [flags.input !== undefined, flags.inputFile !== undefined, dash === '-'].filter(Boolean).length;
  if (given > 1) throw new UsageError('give the input once: --input, --input-file or "-"');
  if (flags.input !== undefined) return { input: parseJson(flags.input, '--input') };
  if (flags.inputFile !== undefined) return { input: await readJsonFile(flags.inputFile, '--input-file') };
  if (dash === '-') return { input: await readJsonFile('-', 'the input') };
  return {};
}

function startOptions(cmd: Command, extra: (cmd: Command) => Command = (c) => c): Command {
  return withClientOptions(
    extra(
      cmd
        .argument('<name>', "the workflow's name or one of its aliases")
        .argument('[-]', 'read the input JSON from standard input')
        .option('--input <json>', 'the input, as JSON')
        .option('--input-file <file>', 'read the input JSON from a file ("-" reads standard input)')
        .option('--catalog <catalog>', "the catalog (task queue) to run on (default: the API's default catalog)")
        .option('--id <workflowId>', 'the workflow id (default: a new UUID, or one derived from --idempotency-key)')
        .addOption(
          new Option('--on-conflict <policy>', 'when a running execution holds the id: fail (default), use-existing, terminate-existing').choices([
            'fail',
            'use-existing',
            'terminate-existing',
          ]),
        )
        .addOption(
          new Option('--on-closed <policy>', 'whether the id of closed executions may be reused: allow (default), allow-failed-only, reject').choices([
            'allow',
            'allow-failed-only',
            'reject',
          ]),
        )
        .option('--idempotency-key <key>', 'a repeat with the same key answers the same execution, even after it closed')
        .option('--start-delay <duration>', 'wait this long before the workflow starts, e.g. 30s, 5m (or milliseconds)', startDelay),
    ),
  );
}

/**
 * Parses `--start-delay`: plain milliseconds or a duration (`30s`, `5m`, `2h`), sent to the API as given (it checks
 * the range).
 * @throws InvalidArgumentError (a usage error) for anything else.
 */
export function startDelay(value: string): string | number {
  if (/^\d+$/.test(value)) return Number(value);
  const n = ms(value as ms.StringValue);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a duration such as 30s, 5m or 2h');
  return value;
}

/** The start options of a `run`/`start` request, from its flags (absent ones left out). */
function startFields(flags: StartFlags) {
  return {
    catalog: flags.catalog,
    workflowId: flags.id,
    ...(flags.onConflict ? { onConflict: flags.onConflict } : {}),
    ...(flags.onClosed ? { onClosed: flags.onClosed } : {}),
    ...(flags.startDelay !== undefined ? { startDelay: flags.startDelay } : {}),
  };
}

/** Prints a run response: the output on stdout, the outcome line (and error) on stderr. */
function printRun(name: string, res: RunResponse, tookMs: number): void {
  process.stderr.write(outcomeLine(res.status, res, name, tookMs));
  if (res.status === 'completed') out(prettyJson(res.output));
  else if (res.error) process.stderr.write(`error: ${inert(res.errorDetails?.name ?? res.failure?.type ?? 'Error')}: ${inert(res.error)}\n`);
}

/** Registers `run` and `start` on the `workflow` command. */
export function registerRunCommands(workflow: Command): void {
  startOptions(workflow.command('run'), (cmd) =>
    cmd.option('--timeout <duration>', "how long to wait, e.g. 30s, 5m (250ms to 1h; default the API's, 30s)", duration),
  )
    .description('run a workflow and wait for it: prints its output (--json: the whole run response)')
    .action(
      action(async (name: string, dash: string | undefined, flags: RunFlags) => {
        const client = clientFrom(flags);
        const body = { workflowName: name, ...(await readInput(dash, flags)), ...startFields(flags), timeout: flags.timeout };
        const started = Date.now();
        const spinner = process.stderr.isTTY && !flags.json ? yoctoSpinner({ text: `running ${name}` }).start() : undefined;
        const tick = spinner && setInterval(() => (spinner.text = `running ${name}  ${formatDuration(Date.now() - started)}`), 1000);
        let res: RunResponse;
        try {
          res = await client.run(body, { idempotencyKey: flags.idempotencyKey });
        } finally {
          clearInterval(tick);
          spinner?.stop();
        }
        if (flags.json) outJson(res);
        else printRun(name, res, Date.now() - started);
        if (isFailedStatus(res.status)) throw new WorkflowOutcomeError(res.status);
      }),
    );

  startOptions(workflow.command('start'))
    .description('start a workflow without waiting: prints its workflowId and runId (retried under an Idempotency-Key when the API is unreachable)')
    .action(
      action(async (name: string, dash: string | undefined, flags: StartFlags) => {
        const client = clientFrom(flags);
        const request = { workflowName: name, ...(await readInput(dash, flags)), ...startFields(flags) };
        const ref = await client.start(request, { idempotencyKey: flags.idempotencyKey });
        if (flags.json) outJson(ref);
        else
          out(
            keyValues([
              ['workflowId', inert(ref.workflowId)],
              ['runId', inert(ref.runId)],
            ]),
          );
      }),
    );
}
