/**
 * `skein workflow batch terminate|cancel|signal|reset --query … | --ids … [--dry-run] [--yes]`, and
 * `skein workflow batch status <batchId>` / `list`: Temporal batch operations through `POST /workflow/batch`.
 * A batch changes many runs at once, so the command always counts first (a dry run) and then asks: on a terminal it
 * shows the count and waits for `y`; elsewhere it refuses unless `--yes` says the caller already decided.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { Batch, BatchRequest, SkeinClient } from '@skein/client';
import { action, clientFrom, parseJson, UsageError, withClientOptions, type ClientFlags } from '../../client/common.js';
import { formatTime, keyValues, out, outJson, paint, table } from '../../client/output.js';

interface BatchFlags extends ClientFlags {
  query?: string;
  ids?: string[];
  catalog?: string;
  reason?: string;
  dryRun?: boolean;
  yes?: boolean;
}

interface SignalFlags extends BatchFlags {
  payload?: string;
}

interface ResetFlags extends BatchFlags {
  type: 'first-workflow-task' | 'last-workflow-task';
}

/** Verbs of the confirmation line and the report, per operation. */
const VERB = { terminate: 'terminate', cancel: 'cancel', signal: 'signal', reset: 'reset' } as const;

/** `--ids a,b --ids c` → `['a', 'b', 'c']`. */
function collectIds(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

function batchOptions(cmd: Command): Command {
  return withClientOptions(
    cmd
      .option('--query <query>', "a visibility query, e.g. \"ExecutionStatus = 'Running' AND WorkflowType = 'order'\" (runs of one catalog)")
      .option('--ids <workflowIds>', 'workflow ids, comma-separated (repeatable): their latest runs', collectIds)
      .option('--catalog <catalog>', "with --query: the catalog whose runs it reaches (default: the API's default catalog)")
      .option('--reason <text>', 'recorded with the operation on each run')
      .option('--dry-run', 'only count the runs it would reach')
      .option('-y, --yes', 'do not ask for confirmation (needed when standard input is not a terminal)'),
  );
}

/**
 * Asks `question` on the terminal and resolves true for `y`/`yes`.
 * @throws UsageError when standard input or standard error is not a terminal: a batch without `--yes` is refused there.
 */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UsageError(`${question.replace(/\?.*$/, '')}: refused without --yes (standard input is not a terminal to confirm on)`);
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(y|yes)$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** The request of a batch command, from its flags; exactly one of `--query` and `--ids`. */
function requestOf(operation: BatchRequest['operation'], flags: BatchFlags): BatchRequest {
  if ((flags.query === undefined) === (flags.ids === undefined)) throw new UsageError('give exactly one of --query and --ids');
  if (flags.ids !== undefined && flags.ids.length === 0) throw new UsageError('--ids names no workflow id');
  if (flags.ids !== undefined && flags.catalog !== undefined) throw new UsageError('--catalog applies to --query only');
  return {
    operation,
    ...(flags.query !== undefined ? { query: flags.query, catalog: flags.catalog } : { workflowIds: flags.ids }),
    reason: flags.reason,
  };
}

/** Counts, asks, starts: the flow every batch operation shares. */
async function runBatch(client: SkeinClient, request: BatchRequest, flags: BatchFlags): Promise<void> {
  const { matched } = await client.startBatch({ ...request, dryRun: true });
  const what = `${VERB[request.operation]} ${matched} run${matched === 1 ? '' : 's'}`;
  if (flags.dryRun) {
    if (flags.json) outJson({ matched });
    else out(`would ${what}\n`);
    return;
  }
  if (matched === 0) {
    if (flags.json) outJson({ matched });
    else out(paint('dim', 'no runs match: nothing to do\n'));
    return;
  }
  if (!flags.yes && !(await confirm(`${what}?`))) {
    process.stderr.write('aborted: nothing changed\n');
    return;
  }
  const started = await client.startBatch(request);
  if (flags.json) return outJson(started);
  const batchId = 'batchId' in started ? started.batchId : '';
  out(`batch ${batchId} started: ${what}\n`);
  out(paint('dim', `progress: skein workflow batch status ${batchId}\n`));
}

function printBatch(b: Batch): void {
  out(
    keyValues([
      ['batchId', b.batchId],
      ['operation', b.operation ?? '-'],
      ['state', b.state],
      ['progress', `${b.completed} completed, ${b.failed} failed of ${b.total}`],
      ['started', formatTime(b.startedAt)],
      ['closed', formatTime(b.closedAt)],
      ['reason', b.reason ?? '-'],
    ]),
  );
}

/** Registers `batch` and its subcommands on the `workflow` command. */
export function registerBatchCommand(workflow: Command): void {
  const batch = workflow
    .command('batch')
    .description('terminate, cancel, signal or reset many runs at once (counts first, then asks)')
    .addHelpText('after', '\nEach operation counts what it reaches first; it asks on a terminal, and needs --yes elsewhere.');

  for (const operation of ['terminate', 'cancel'] as const) {
    batchOptions(batch.command(operation))
      .description(operation === 'terminate' ? 'terminate runs at once (no cleanup)' : 'request cancellation of runs')
      .action(action(async (flags: BatchFlags) => runBatch(clientFrom(flags), requestOf(operation, flags), flags)));
  }

  batchOptions(batch.command('signal'))
    .description('send a signal to runs')
    .argument('<name>', 'the signal name')
    .option('--payload <json>', "the signal handler's argument, a JSON object")
    .action(
      action(async (name: string, flags: SignalFlags) => {
        const payload = flags.payload === undefined ? undefined : parseJson(flags.payload, '--payload');
        if (payload !== undefined && (payload === null || typeof payload !== 'object' || Array.isArray(payload))) {
          throw new UsageError('--payload of a signal must be a JSON object');
        }
        const request = { ...requestOf('signal', flags), signal: { name, payload: payload as Record<string, unknown> | undefined } };
        await runBatch(clientFrom(flags), request, flags);
      }),
    );

  batchOptions(batch.command('reset'))
    .description('reset runs to their first or last completed workflow task')
    .addOption(new Option('--type <type>', 'where each run goes back to').choices(['first-workflow-task', 'last-workflow-task']).default('last-workflow-task'))
    .action(
      action(async (flags: ResetFlags) => {
        await runBatch(clientFrom(flags), { ...requestOf('reset', flags), reset: { type: flags.type } }, flags);
      }),
    );

  withClientOptions(batch.command('status'))
    .description("a batch's progress")
    .argument('<batchId>', 'the id `skein workflow batch <operation>` printed')
    .action(
      action(async (batchId: string, flags: ClientFlags) => {
        const b = await clientFrom(flags).batch(batchId);
        if (flags.json) outJson(b);
        else printBatch(b);
      }),
    );

  withClientOptions(batch.command('list'))
    .description('recent batch operations, newest first')
    .action(
      action(async (flags: ClientFlags) => {
        const page = await clientFrom(flags).listBatches();
        if (flags.json) return outJson(page);
        if (page.batches.length === 0) return out(paint('dim', 'no batch operations\n'));
        out(
          table(
            ['batch id', 'operation', 'state', 'completed', 'failed', 'total', 'started'],
            page.batches.map((b) => [b.batchId, b.operation ?? '-', b.state, String(b.completed), String(b.failed), String(b.total), formatTime(b.startedAt)]),
          ),
        );
      }),
    );
}
