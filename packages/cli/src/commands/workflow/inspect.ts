/** `skein workflow status | result | input | list`. */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { RunStatus } from '@skein/client';
import { action, clientFrom, intBetween, isFailedStatus, runTarget, withClientOptions, WorkflowOutcomeError, type ClientFlags } from '../../client/common.js';
import {
  elapsed,
  formatDuration,
  formatTime,
  inert,
  keyValues,
  out,
  outcomeLine,
  outJson,
  paint,
  prettyJson,
  statusMark,
  statusText,
  table,
} from '../../client/output.js';

interface RunFlags extends ClientFlags {
  run?: string;
}

interface ListFlags extends ClientFlags {
  name?: string;
  status?: RunStatus;
  catalog?: string;
  query?: string;
  limit: number;
}

/** Statuses `--status` accepts (docs/reference/api-contract.md, "Statuses"). */
const STATUSES: readonly RunStatus[] = ['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new'];

/**
 * Parses `--status`: a run status, or the older names the seed system's command-line client still accepts:
 * `continued` (now `continued_as_new`) and `cancelled`.
 */
export function parseStatus(value: string): RunStatus {
  const v = value.toLowerCase();
  if (v === 'continued') return 'continued_as_new';
  if (v === 'cancelled') return 'canceled';
  if ((STATUSES as readonly string[]).includes(v)) return v as RunStatus;
  throw new InvalidArgumentError(`must be one of ${STATUSES.join(', ')} (or continued, cancelled)`);
}

/** Registers `status`, `result`, `input` and `list` on the `workflow` command. */
export function registerInspectCommands(workflow: Command): void {
  runTarget(workflow.command('status'))
    .description("print a run's workflow, status, start and close times")
    .action(
      action(async (workflowId: string, flags: RunFlags) => {
        const s = await clientFrom(flags).status(workflowId, { runId: flags.run });
        if (flags.json) return outJson(s);
        out(
          keyValues([
            ['workflowId', inert(s.workflowId)],
            ['runId', inert(s.runId)],
            ['workflow', inert(s.workflowType)],
            ['status', `${statusMark(s.status)} ${statusText(s.status)}`],
            ['started', formatTime(s.startedAt)],
            ['closed', formatTime(s.completedAt)],
            ['duration', formatDuration(elapsed(s.startedAt, s.completedAt))],
            // A run started with a delay that has not passed yet.
            ...(s.delayedUntil ? [['delayed until', formatTime(s.delayedUntil)] as [string, string]] : []),
          ]),
        );
      }),
    );

  runTarget(workflow.command('result'))
    .description(
      "print a closed run's output, after a line with its outcome, workflow and duration (--json: the whole result response); exit 1 if it failed, was canceled, terminated or timed out",
    )
    .action(
      action(async (workflowId: string, flags: RunFlags) => {
        const client = clientFrom(flags);
        const r = await client.result(workflowId, { runId: flags.run });
        if (flags.json) outJson(r);
        else {
          // The outcome line names the workflow and how long the run took, as `workflow run` does; the result
          // response holds neither, the run's status does (a run that cannot be described is shown without them).
          const s = await client.status(workflowId, { runId: r.runId }).catch(() => undefined);
          process.stderr.write(outcomeLine(r.status, r, s?.workflowType, s ? (elapsed(s.startedAt, s.completedAt) ?? undefined) : undefined));
          if (r.status === 'completed') out(prettyJson(r.output));
          else if (r.error)
            process.stderr.write(
              `error: ${inert(r.error.name)}: ${inert(r.error.message)}${r.error.activityType ? ` (in ${inert(r.error.activityType)})` : ''}\n`,
            );
        }
        if (isFailedStatus(r.status)) throw new WorkflowOutcomeError(r.status);
      }),
    );

  runTarget(workflow.command('input'))
    .description('print the input a run was started with (--json: with its ids)')
    .action(
      action(async (workflowId: string, flags: RunFlags) => {
        const r = await clientFrom(flags).input(workflowId, { runId: flags.run });
        if (flags.json) outJson(r);
        else out(prettyJson(r.input));
      }),
    );

  withClientOptions(workflow.command('list'))
    .description('list recent runs, newest first, as a table')
    .option('--name <workflowName>', 'only runs of this workflow type')
    .option('--status <status>', 'only runs with this status (continued = continued_as_new)', parseStatus)
    .option('--catalog <catalog>', 'only runs on this catalog (task queue)')
    .option('--query <query>', 'only runs matching a visibility query, e.g. "ExecutionStatus = \'Running\'" (what `workflow batch --query` reaches)')
    .option('--limit <n>', 'how many runs to read (1-1000)', intBetween(1, 1000), 20)
    .action(
      action(async (flags: ListFlags) => {
        const res = await clientFrom(flags).listRuns({ workflowType: flags.name, catalog: flags.catalog, query: flags.query, limit: flags.limit });
        // The API has no status filter: filter the page it returned.
        const runs = flags.status ? res.runs.filter((r) => r.status === flags.status) : res.runs;
        if (flags.json) return outJson({ runs, count: runs.length });
        if (runs.length === 0) return out(paint('dim', 'no runs\n'));
        out(
          table(
            ['workflow id', 'type', 'status', 'started', 'duration', 'run id'],
            runs.map((r) => [
              inert(r.workflowId),
              inert(r.workflowType),
              `${statusMark(r.status)} ${statusText(r.status)}`,
              formatTime(r.startedAt),
              formatDuration(elapsed(r.startedAt, r.completedAt)),
              inert(r.runId),
            ]),
          ),
        );
      }),
    );
}
