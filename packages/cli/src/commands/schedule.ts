/** `skein schedule create | list | describe | update | pause | unpause | trigger | backfill | delete`, over `@skein/client`. */
import { Option, type Command } from 'commander';
import type { CreateScheduleRequest, ScheduleDescription, UpdateScheduleRequest } from '@skein/client';
import {
  action,
  clientConventions,
  clientFrom,
  intBetween,
  parseJson,
  readJsonFile,
  UsageError,
  withClientOptions,
  type ClientFlags,
} from '../client/common.js';
import { formatTime, keyValues, out, outJson, paint, prettyJson, table } from '../client/output.js';

const OVERLAP = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'];

/** Options of `create` and `update` (commander's camel-cased names). */
interface DefinitionFlags extends ClientFlags {
  workflow?: string;
  id?: string;
  cron?: string[];
  every?: string;
  timezone?: string;
  startAt?: string;
  endAt?: string;
  jitter?: string;
  input?: string;
  inputFile?: string;
  catalog?: string;
  overlap?: string;
  catchupWindow?: string;
  pauseOnFailure?: boolean;
  paused?: boolean;
  note?: string;
}

/** Adds the definition options to `create` or `update`. */
function definitionOptions(cmd: Command): Command {
  return withClientOptions(
    cmd
      .option('--cron <expr...>', 'cron entries: 5 fields ("0 9 * * MON-FRI"), @daily, @hourly…, or "@every 90s"')
      .option('--every <duration>', 'a fixed interval of at least 1s (30s, 5m, 1h)')
      .option('--timezone <tz>', 'IANA time zone of the cron entries (default UTC)')
      .option('--start-at <iso>', 'no run before this time')
      .option('--end-at <iso>', 'no run after this time')
      .option('--jitter <duration>', 'delay each run by a random amount up to this')
      .option('--input <json>', "the input of every run, as JSON (checked against the workflow's input schema)")
      .option('--input-file <file>', 'read the input from a JSON file (- for standard input)')
      .option('--catalog <catalog>', "the catalog (task queue) (default: the API's default catalog)")
      .addOption(new Option('--overlap <policy>', 'when a run comes due while the previous one is open (default skip)').choices(OVERLAP))
      .option('--catchup-window <duration>', 'how late a missed run may still start')
      .option('--pause-on-failure', 'pause the schedule when one of its runs fails')
      .option('--paused', 'create or set the schedule paused')
      .option('--note <text>', 'a note shown with the paused state'),
  );
}

/** The request fields the flags set (absent flags stay absent). */
async function definitionOf(flags: DefinitionFlags): Promise<Omit<UpdateScheduleRequest, 'spec'> & { spec: Record<string, unknown> }> {
  if (flags.input !== undefined && flags.inputFile !== undefined) throw new UsageError('give --input or --input-file, not both');
  const input =
    flags.input !== undefined
      ? parseJson(flags.input, '--input')
      : flags.inputFile !== undefined
        ? await readJsonFile(flags.inputFile, 'the input file')
        : undefined;
  const spec = Object.fromEntries(
    Object.entries({ cron: flags.cron, every: flags.every, timezone: flags.timezone, startAt: flags.startAt, endAt: flags.endAt, jitter: flags.jitter }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const fields = {
    workflowName: flags.workflow,
    input,
    catalog: flags.catalog,
    overlap: flags.overlap as UpdateScheduleRequest['overlap'],
    catchupWindow: flags.catchupWindow,
    pauseOnFailure: flags.pauseOnFailure,
    paused: flags.paused,
    note: flags.note,
  };
  return { ...(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Omit<UpdateScheduleRequest, 'spec'>), spec };
}

/** Human view of `describe`. */
function describeText(d: ScheduleDescription): string {
  const spec = [
    ...(d.spec.cron ?? []).map((c) => `cron ${c}`),
    ...(d.spec.every ? [`every ${d.spec.every}`] : []),
    ...(d.spec.timezone ? [`in ${d.spec.timezone}`] : []),
  ].join(', ');
  let text = `${paint('bold', `schedule ${d.scheduleId}`)}${d.paused ? `  ${paint('yellow', 'paused')}` : ''}${d.declared ? `  ${paint('dim', '(declared in code)')}` : ''}\n\n`;
  text += keyValues([
    ['workflow', `${d.workflowName} on ${d.catalog}`],
    ['when', spec],
    ['overlap', d.overlap],
    ['note', d.note ?? '-'],
    ['next', d.nextActionTimes.slice(0, 3).map(formatTime).join(', ') || '-'],
    ['created', formatTime(d.createdAt)],
  ]);
  text += `\n${paint('dim', 'input')}\n${prettyJson(d.input)}`;
  text += `\n${paint('dim', 'recent runs')}\n`;
  text += d.recentActions.length
    ? table(
        ['scheduled', 'started', 'workflow id', 'run id'],
        d.recentActions.map((a) => [formatTime(a.scheduledAt), formatTime(a.startedAt), a.workflowId, a.runId]),
      )
    : '  -\n';
  if (d.running.length)
    text += `\n${paint('dim', 'running')}\n${table(
      ['workflow id', 'run id'],
      d.running.map((r) => [r.workflowId, r.runId]),
    )}`;
  return text;
}

interface ListFlags extends ClientFlags {
  limit?: number;
  pageToken?: string;
  all?: boolean;
}

/** Adds `schedule` and its subcommands to `program`. */
export function registerScheduleCommand(program: Command): void {
  const schedule = clientConventions(program.command('schedule')).description('create, inspect and control schedules (recurring runs) through the API');

  definitionOptions(clientConventions(schedule.command('create')))
    .description('create a schedule that starts a workflow at the given times')
    .requiredOption('--workflow <name>', 'the workflow (name or alias) each run starts')
    .option('--id <scheduleId>', 'the schedule id (default: a UUID)')
    .action(
      action(async (flags: DefinitionFlags) => {
        const def = await definitionOf(flags);
        const request = { ...def, ...(flags.id ? { scheduleId: flags.id } : {}) } as CreateScheduleRequest;
        const r = await clientFrom(flags).schedules.create(request);
        if (flags.json) outJson(r);
        else out(`schedule ${r.scheduleId} created\n`);
      }),
    );

  withClientOptions(clientConventions(schedule.command('list')))
    .description('list schedules, a page at a time (--all: every page)')
    .option('--limit <n>', 'schedules per page, 1–100', intBetween(1, 100))
    .option('--page-token <token>', 'the nextPageToken of a previous page')
    .option('--all', 'read every page')
    .action(
      action(async (flags: ListFlags) => {
        const client = clientFrom(flags);
        let schedules;
        let nextPageToken: string | null = null;
        if (flags.all) {
          schedules = [];
          for await (const s of client.schedules.all({ limit: flags.limit })) schedules.push(s);
        } else {
          const page = await client.schedules.list({ limit: flags.limit, pageToken: flags.pageToken });
          schedules = page.schedules;
          nextPageToken = page.nextPageToken;
        }
        if (flags.json) return outJson({ schedules, nextPageToken });
        if (schedules.length === 0) return out(paint('dim', 'no schedules\n'));
        const rows = schedules.map((s) => [
          s.scheduleId,
          s.workflowName,
          s.catalog,
          s.paused ? 'paused' : 'active',
          formatTime(s.nextActionTimes[0] ?? null),
          s.declared ? 'code' : 'api',
        ]);
        out(table(['schedule id', 'workflow', 'catalog', 'state', 'next run', 'from'], rows));
        if (nextPageToken) out(paint('dim', `more: skein schedule list --page-token ${nextPageToken}\n`));
      }),
    );

  withClientOptions(clientConventions(schedule.command('describe')))
    .description("show a schedule's definition, state, next times and recent runs")
    .argument('<scheduleId>', 'the schedule id')
    .action(
      action(async (scheduleId: string, flags: ClientFlags) => {
        const d = await clientFrom(flags).schedules.describe(scheduleId);
        if (flags.json) outJson(d);
        else out(describeText(d));
      }),
    );

  definitionOptions(clientConventions(schedule.command('update')))
    .description('change a schedule: the options given replace the current values (spec options are merged into the current spec)')
    .argument('<scheduleId>', 'the schedule id')
    .option('--workflow <name>', 'the workflow (name or alias) each run starts')
    .option('--no-paused', 'set the schedule unpaused')
    .action(
      action(async (scheduleId: string, flags: DefinitionFlags) => {
        const { spec, ...rest } = await definitionOf(flags);
        const patch = { ...rest, ...(Object.keys(spec).length ? { spec } : {}) };
        if (Object.keys(patch).length === 0) throw new UsageError('nothing to change: give at least one option');
        const d = await clientFrom(flags).schedules.update(scheduleId, patch);
        if (flags.json) outJson(d);
        else out(describeText(d));
      }),
    );

  for (const verb of ['pause', 'unpause'] as const) {
    withClientOptions(clientConventions(schedule.command(verb)))
      .description(verb === 'pause' ? 'pause a schedule (trigger still runs it)' : 'unpause a schedule')
      .argument('<scheduleId>', 'the schedule id')
      .option('--note <text>', 'why')
      .action(
        action(async (scheduleId: string, flags: ClientFlags & { note?: string }) => {
          const r = await clientFrom(flags).schedules[verb](scheduleId, flags.note);
          if (flags.json) outJson(r);
          else out(`schedule ${r.scheduleId} ${r.paused ? 'paused' : 'unpaused'}${r.note ? `  ${paint('dim', r.note)}` : ''}\n`);
        }),
      );
  }

  withClientOptions(clientConventions(schedule.command('trigger')))
    .description('start one run of a schedule now, even while it is paused')
    .argument('<scheduleId>', 'the schedule id')
    .addOption(new Option('--overlap <policy>', 'overlap policy of this run (default allow_all)').choices(OVERLAP))
    .action(
      action(async (scheduleId: string, flags: ClientFlags & { overlap?: string }) => {
        const r = await clientFrom(flags).schedules.trigger(scheduleId, flags.overlap ? { overlap: flags.overlap as 'skip' } : {});
        if (flags.json) outJson(r);
        else out(`schedule ${r.scheduleId}: run requested\n`);
      }),
    );

  withClientOptions(clientConventions(schedule.command('backfill')))
    .description('start the runs a schedule had due between two times')
    .argument('<scheduleId>', 'the schedule id')
    .requiredOption('--start-at <iso>', 'start of the period (ISO 8601)')
    .requiredOption('--end-at <iso>', 'end of the period (ISO 8601)')
    .addOption(new Option('--overlap <policy>', 'overlap policy of the backfilled runs (default allow_all)').choices(OVERLAP))
    .action(
      action(async (scheduleId: string, flags: ClientFlags & { startAt: string; endAt: string; overlap?: string }) => {
        const r = await clientFrom(flags).schedules.backfill(scheduleId, {
          startAt: flags.startAt,
          endAt: flags.endAt,
          ...(flags.overlap ? { overlap: flags.overlap as 'skip' } : {}),
        });
        if (flags.json) outJson(r);
        else out(`schedule ${r.scheduleId}: backfill of ${flags.startAt} – ${flags.endAt} requested\n`);
      }),
    );

  withClientOptions(clientConventions(schedule.command('delete')))
    .description('delete a schedule (the runs it started are not affected)')
    .argument('<scheduleId>', 'the schedule id')
    .action(
      action(async (scheduleId: string, flags: ClientFlags) => {
        await clientFrom(flags).schedules.delete(scheduleId);
        if (flags.json) outJson({ scheduleId, deleted: true });
        else out(`schedule ${scheduleId} deleted\n`);
      }),
    );
}
