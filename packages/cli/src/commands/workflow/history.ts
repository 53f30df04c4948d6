/** `skein workflow history [--follow]`. */
import type { Command } from 'commander';
import type { HistoryEvent, HistoryPage } from '@skein/client';
import { action, clientFrom, isFailedStatus, runTarget, WorkflowOutcomeError, type ClientFlags } from '../../client/common.js';
import { formatDuration, inert, note, out, outcomeLine, outJson, paint } from '../../client/output.js';

interface HistoryFlags extends ClientFlags {
  run?: string;
  follow?: boolean;
  payloads?: boolean;
}

type Attributes = Record<string, unknown> & {
  activityType?: { name?: string };
  signalName?: string;
  workflowType?: { name?: string };
  failure?: { message?: string };
  reason?: string;
  identity?: string;
};

/** The event type without Temporal's `EVENT_TYPE_` prefix (the API's `eventTypeName`, derived for older servers). */
export function eventTypeName(event: HistoryEvent): string {
  const named = (event as { eventTypeName?: unknown }).eventTypeName;
  return typeof named === 'string' ? named : event.eventType.replace(/^EVENT_TYPE_/, '');
}

function attributes(event: HistoryEvent): Attributes {
  for (const [key, value] of Object.entries(event)) {
    if (key.endsWith('EventAttributes') && value && typeof value === 'object') return value as Attributes;
  }
  return {};
}

/**
 * The detail column: the step (or activity type), signal, child workflow type, or failure message of an event,
 * made inert (whoever started or ran the workflow chose it).
 */
export function eventDetail(event: HistoryEvent): string {
  const step = (event as { stepName?: unknown }).stepName;
  if (typeof step === 'string') return inert(step);
  const a = attributes(event);
  return inert(a.activityType?.name ?? a.signalName ?? a.workflowType?.name ?? a.failure?.message ?? a.reason ?? '');
}

function clock(iso: string | undefined): string {
  if (!iso) return ''.padEnd(12);
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return ''.padEnd(12);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

const TYPE_WIDTH = 40;

/** One history event as a line: id, local time, type, detail. */
export function eventLine(event: HistoryEvent): string {
  const type = eventTypeName(event);
  const style = /FAILED|TIMED_OUT|TERMINATED/.test(type) ? 'red' : /COMPLETED/.test(type) ? 'green' : 'white';
  return (
    `${inert(event.eventId).padStart(5)}  ${paint('dim', clock(event.eventTime))}  ${paint(style, inert(type).padEnd(TYPE_WIDTH))}  ${eventDetail(event)}`.trimEnd() +
    '\n'
  );
}

function header(): string {
  return paint('dim', `${'ID'.padStart(5)}  ${'TIME'.padEnd(12)}  ${'EVENT'.padEnd(TYPE_WIDTH)}  DETAIL`) + '\n';
}

/** Reads every page of one run's history (pinned by the first page), up to its current end. */
async function readAll(flags: HistoryFlags, workflowId: string, onPage: (page: HistoryPage) => void): Promise<void> {
  const client = clientFrom(flags);
  let pageToken: string | undefined;
  do {
    const page = await client.history(workflowId, { runId: flags.run, pageToken, pageSize: 50, includePayloads: flags.payloads });
    onPage(page);
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
}

/**
 * Prints the table's header at its first call only: called once the API answered, so a refused request prints its
 * error alone and stdout stays empty.
 */
function onceHeader(): () => void {
  let headed = false;
  return () => {
    if (!headed) out(header());
    headed = true;
  };
}

/** Streams the run's history until it closes; exit 1 if it failed, was canceled, terminated or timed out. */
async function follow(flags: HistoryFlags, workflowId: string): Promise<void> {
  const client = clientFrom(flags);
  const headOnce = onceHeader();
  const done = await client.followHistory(workflowId, {
    runId: flags.run,
    includePayloads: flags.payloads,
    onFrame(frame) {
      if (flags.json) return outJson(frame);
      headOnce();
      if (frame.type === 'workflow') {
        const w = frame.workflow;
        note(`following ${w.workflowType}  ${w.workflowId}  run ${w.runId}`);
      } else out(eventLine(frame.event));
    },
    onReconnect({ error, delayMs, lastEventId }) {
      note(`connection lost (${error.message}); resuming after event ${lastEventId} in ${formatDuration(delayMs)}`, 'yellow');
    },
  });
  if (flags.json) outJson({ type: 'done', ...done });
  else process.stderr.write(outcomeLine(done.status, done));
  if (isFailedStatus(done.status)) throw new WorkflowOutcomeError(done.status);
}

/** Registers `history` on the `workflow` command. */
export function registerHistoryCommand(workflow: Command): void {
  runTarget(workflow.command('history'))
    .description("print a run's history events (--follow: stream them until the run closes)")
    .option('-f, --follow', 'stream new events over server-sent events until the run closes, resuming after dropped connections')
    .option('--payloads', 'decode input and output payloads in events (with --json)')
    .addHelpText(
      'after',
      '\nWith --json: one JSON document { workflow, runId, events }; with --follow --json: one JSON line per frame\n({"type":"workflow"|"history"|"done", ...}).',
    )
    .action(
      action(async (workflowId: string, flags: HistoryFlags) => {
        if (flags.follow) return follow(flags, workflowId);
        if (flags.json) {
          let first: HistoryPage | undefined;
          const events: HistoryEvent[] = [];
          await readAll(flags, workflowId, (page) => {
            first ??= page;
            events.push(...page.events);
          });
          return outJson({ workflow: first?.workflow, runId: first?.runId, events });
        }
        const headOnce = onceHeader();
        await readAll(flags, workflowId, (page) => {
          headOnce();
          for (const e of page.events) out(eventLine(e));
        });
      }),
    );
}
