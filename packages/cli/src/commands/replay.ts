import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ReplayHistory, ReplayOutcome } from '@skein/worker';
import { inert } from '../client/inert.js';

/** Options of `skein replay`. */
export interface ReplayFlags {
  workflow?: string;
  /** Raw `--limit` text: checked here so that a bad value is a usage error (exit 2). */
  limit?: string;
  histories?: string;
}

/** Exit codes of `skein replay`. */
export const REPLAY_EXIT = { compatible: 0, incompatible: 1, usage: 2 } as const;

/** Histories read from the engine when `--limit` is not given. */
const DEFAULT_LIMIT = 100;

function usage(message: string): never {
  process.stderr.write(`skein: ${inert(message)}\n`);
  process.exit(REPLAY_EXIT.usage);
}

/** The report line of a replay that failed: workflow type, workflow id, run id, first mismatching event, Temporal's explanation. */
export function mismatchLine(o: Extract<ReplayOutcome, { ok: false }>): string {
  const what = o.kind === 'nondeterminism' ? 'nondeterminism' : 'replay failed';
  const event = o.event ? `first mismatching event ${o.event.eventId}${o.event.eventType ? ` ${o.event.eventType}` : ''}` : 'no event named';
  return `${what}: workflow "${inert(o.workflowType)}" id ${inert(o.workflowId)} run ${inert(o.runId)}: ${event}: ${inert(o.message)}`;
}

/**
 * `skein replay [projectDir|buildDir] [--workflow NAME] [--limit N] [--histories PATH]`: replays run histories
 * against the workflow code of a project (checked and bundled as a worker would) or of a build (`skein build`),
 * with Temporal's replayer, before that code is deployed. Histories come from the
 * engine (the most recent runs, closed and open, on the catalog `SKEIN_CATALOG`, at `TEMPORAL_ADDRESS`) or from
 * JSON files (`--histories`: a file or a directory of files, as `skein workflow history <id> --json` or
 * `temporal workflow show --output json` writes them). Files are read one at a time as the replay needs them, so
 * `--limit` bounds what is read and parsed; a folder's entries that are not regular files (a FIFO, a socket, a
 * device) are skipped with a note, and a file over 256 MiB is refused.
 * Exit 0: every history replays (or there was nothing to replay, the project prepared all the same); 1: at least
 * one does not (each named on stderr with workflow type, workflow id, run id and the first mismatching event), or the
 * project could not be prepared or the engine read; 2: usage error, including a history file that is not a history (the histories
 * before it have been replayed and reported).
 */
export async function replayCommand(dir: string, flags: ReplayFlags): Promise<void> {
  let limit = DEFAULT_LIMIT;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!/^\d+$/.test(flags.limit.trim()) || !Number.isSafeInteger(limit) || limit < 1) usage(`--limit must be a positive whole number, got "${flags.limit}"`);
  }
  const projectDir = path.resolve(dir);
  if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) usage(`${dir} is not a directory`);
  const worker = await import('@skein/worker');
  const { cliLogger, fail } = await import('../logger.js');
  // The project check's and Temporal's notes, at SKEIN_LOG_LEVEL; the replay's own report is plain lines.
  const logger = cliLogger('skein-replay');

  // Files are read lazily, up to --limit matching histories. The first one is read before the project is prepared:
  // a folder whose first file is bad ends here. One with nothing to replay still has its project judged (a gate
  // before a deploy does not pass code that cannot load).
  let fromFiles: AsyncIterable<ReplayHistory> | undefined;
  if (flags.histories !== undefined) {
    const files = worker.historyFiles(path.resolve(flags.histories), {
      onSkip: (file, reason) => process.stderr.write(`skein: skipped ${inert(file)}: ${reason}\n`),
    });
    const selected = (async function* () {
      let taken = 0;
      for await (const h of files) {
        if (flags.workflow && h.workflowType !== flags.workflow) continue;
        yield h;
        if (++taken >= limit) return;
      }
    })();
    let first: IteratorResult<ReplayHistory>;
    try {
      first = await selected.next();
    } catch (err) {
      if (err instanceof worker.HistoryFileError) usage(err.message);
      throw err;
    }
    const head = first.done ? undefined : first.value;
    fromFiles = (async function* () {
      if (head === undefined) return;
      yield head;
      yield* selected;
    })();
  }

  let code: string;
  try {
    // A build (`skein build`) replays its own bundle; a project is checked and bundled as a worker would.
    code = worker.looksLikeBuild(projectDir)
      ? (await worker.openBuild(projectDir)).workflowCode
      : (await worker.prepareProject(projectDir, { logger })).workflowCode;
  } catch (err) {
    const { explainError } = await import('../explain.js');
    return fail(explainError(err));
  }

  let histories: AsyncIterable<ReplayHistory> | Iterable<ReplayHistory>;
  let close = async () => {};
  const config = worker.loadWorkerConfig();
  if (fromFiles) histories = fromFiles;
  else {
    const { Client, Connection } = await import('@temporalio/client');
    const { engine } = config;
    let connection: Awaited<ReturnType<typeof Connection.connect>>;
    try {
      connection = await Connection.connect({ ...(engine.connectionOptions as object), address: engine.address, connectTimeout: 5000 });
    } catch {
      return fail(`cannot reach the Temporal server at ${engine.address}: start one ("skein dev" runs its own) or set TEMPORAL_ADDRESS to a running server`);
    }
    close = () => connection.close();
    const client = new Client({ connection, namespace: engine.namespace });
    histories = worker.engineHistories(client, { catalog: config.catalog, limit, ...(flags.workflow ? { workflowType: flags.workflow } : {}) });
  }

  let replayed = 0;
  let incompatible = 0;
  try {
    for await (const outcome of worker.replayHistories(code, histories, { logger })) {
      replayed++;
      if (outcome.ok) {
        process.stdout.write(`ok  ${inert(outcome.workflowType)}  ${inert(outcome.workflowId)}  run ${inert(outcome.runId)}\n`);
      } else {
        incompatible++;
        process.stderr.write(`skein: ${mismatchLine(outcome)}\n`);
      }
    }
  } catch (err) {
    // A bad history file met on the way is a usage error, as when it is the first one.
    if (err instanceof worker.HistoryFileError) usage(`${err.message} (after ${replayed} histories replayed)`);
    fail(`replay stopped after ${replayed} histories: ${inert((err as Error).message.split('\n')[0])}`);
  } finally {
    await close().catch(() => {});
  }
  const where = fromFiles ? inert(flags.histories) : `catalog "${inert(config.catalog)}" at ${config.engine.address}`;
  if (replayed === 0) {
    const of = flags.workflow ? ` of workflow "${inert(flags.workflow)}"` : '';
    process.stdout.write(fromFiles ? `nothing to replay: no history${of} in ${where}\n` : `nothing to replay: no runs${of} on ${where}\n`);
    return;
  }
  if (incompatible > 0) {
    process.stderr.write(`skein: ${incompatible} of ${replayed} histories from ${where} do not replay on ${projectDir}\n`);
    process.exit(REPLAY_EXIT.incompatible);
  }
  process.stdout.write(`${replayed} histories from ${where} replay on ${projectDir}: compatible\n`);
}
