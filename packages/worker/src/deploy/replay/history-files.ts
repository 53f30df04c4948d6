import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root.js';
import type { ReplayHistory } from './types.js';

/** A history file that cannot be replayed: `file` is the path, `message` names it and says why. */
export class HistoryFileError extends Error {
  override name = 'HistoryFileError';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

type JsonEvent = Record<string, unknown>;

/** The attributes object of a history event in Temporal's JSON form (the one key ending in `EventAttributes`). */
function attributesOf(event: JsonEvent): Record<string, unknown> | undefined {
  for (const key in event) {
    if (key.endsWith('EventAttributes') && event[key] && typeof event[key] === 'object') return event[key] as Record<string, unknown>;
  }
  return undefined;
}

/** Whether a JSON payload list holds decoded values (`skein workflow history --json --payloads`) instead of payloads. */
function holdsDecodedPayloads(attributes: Record<string, unknown>): boolean {
  const input = attributes.input as { payloads?: unknown } | undefined;
  if (!input || !Array.isArray(input.payloads)) return false;
  return input.payloads.some((p) => !p || typeof p !== 'object' || !('metadata' in p));
}

const STARTED = 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED';

type ProtoType = object;
let historyType: { type: ProtoType; fromJson: (type: ProtoType, json: unknown, options: object) => unknown } | undefined;

/**
 * Parses Temporal's history JSON (proto3 JSON: int64 as numbers or strings, timestamps ISO 8601, durations
 * `"1.5s"`, bytes base64, enums by name; unknown fields such as `eventTypeName` ignored) into history events.
 * The JSON reader is taken from the protobuf library `@temporalio/proto` itself was built with: its message
 * types only parse with that copy, and an install can hold several (Temporal's `historyFromJSON` takes
 * whichever copy `@temporalio/common` finds, and fails with "type must be a Type" when they differ).
 */
function parseHistory(events: unknown[]): ReplayHistory['history'] {
  if (!historyType) {
    const fromProto = createRequire(import.meta.resolve('@temporalio/proto'));
    const { fromJson } = fromProto('protobufjs/ext/protojson') as { fromJson: (type: ProtoType, json: unknown, options: object) => unknown };
    const root = patchProtobufRoot(proto as unknown as Record<string, unknown>) as unknown as { lookupType(name: string): ProtoType };
    historyType = { type: root.lookupType('temporal.api.history.v1.History'), fromJson };
  }
  const history = historyType.fromJson(historyType.type, { events }, { ignoreUnknownFields: true });
  if (!history) throw new Error('the events do not parse');
  return history;
}

/**
 * One history file's content as a replayable history. Two JSON shapes are read:
 * - what `skein workflow history <id> --json` prints: `{ workflow: { workflowId, runId, workflowType, ... }, runId, events }`;
 * - Temporal's own history JSON (`temporal workflow show --output json`, the SDK's `historyToJSON`): `{ events }`;
 *   its workflow id, which a history does not hold, is the file name without `.json`.
 * Event types and other enums are read by their full names (`EVENT_TYPE_WORKFLOW_EXECUTION_STARTED`), as both write them.
 * The run id and workflow type are read from the first event (`WorkflowExecutionStarted`).
 * @throws HistoryFileError naming `file` when the text is not JSON, not a history, was written with decoded
 *   payloads (`--payloads`), or its events do not parse as Temporal history events.
 */
export function historyFromText(file: string, text: string): ReplayHistory {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new HistoryFileError(file, `not JSON (${(err as Error).message})`);
  }
  const events = doc && typeof doc === 'object' ? (doc as { events?: unknown }).events : undefined;
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !e || typeof e !== 'object')) {
    throw new HistoryFileError(
      file,
      'not a workflow history: expected a JSON object with a non-empty "events" array (as "skein workflow history <id> --json" prints)',
    );
  }
  const first = events[0] as JsonEvent;
  const started = attributesOf(first);
  if (first.eventType !== STARTED || !started) {
    throw new HistoryFileError(file, `not a whole workflow history: its first event is ${String(first.eventType)}, not WORKFLOW_EXECUTION_STARTED`);
  }
  if (holdsDecodedPayloads(started)) {
    throw new HistoryFileError(file, 'holds decoded payloads (written with --payloads): export it again without --payloads');
  }
  let history: ReplayHistory['history'];
  try {
    history = parseHistory(events);
  } catch (err) {
    throw new HistoryFileError(file, `not a Temporal history: ${(err as Error).message.split('\n')[0]}`);
  }
  const workflow = (doc as { workflow?: { workflowId?: unknown; runId?: unknown; workflowType?: unknown } }).workflow;
  const startedRunId = started.originalExecutionRunId ?? started.firstExecutionRunId;
  const startedType = (started.workflowType as { name?: unknown } | undefined)?.name;
  return {
    workflowId: typeof workflow?.workflowId === 'string' ? workflow.workflowId : path.basename(file).replace(/\.json$/i, ''),
    runId: typeof workflow?.runId === 'string' ? workflow.runId : typeof startedRunId === 'string' ? startedRunId : '',
    workflowType: typeof workflow?.workflowType === 'string' ? workflow.workflowType : typeof startedType === 'string' ? startedType : '',
    source: file,
    history,
  };
}

/**
 * A history already in protobuf form (`WorkflowHandle.fetchHistory()`, a test environment's history) as a
 * replayable one: its run id and workflow type read from its first event (`WorkflowExecutionStarted`), empty
 * when the history holds none. `source` names it in reports (default `memory`).
 */
export function replayHistoryOf(workflowId: string, history: ReplayHistory['history'], source = 'memory'): ReplayHistory {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return {
    workflowId,
    runId: started?.originalExecutionRunId ?? started?.firstExecutionRunId ?? '',
    workflowType: started?.workflowType?.name ?? '',
    source,
    history,
  };
}

/** Largest history file read (bytes): Temporal refuses histories over 50 MB, and their JSON is at most a few times that. */
export const HISTORY_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** How {@link historyFiles} reads. */
export interface HistoryFilesOptions {
  /** Largest file read, bytes (default {@link HISTORY_FILE_MAX_BYTES}). */
  maxBytes?: number;
  /** Told about each entry of a folder that is not a regular file (a FIFO, socket, device, folder or link), which is skipped. */
  onSkip?: (file: string, reason: string) => void;
}

/**
 * Reads one history file through a handle opened without blocking (a FIFO opens at once instead of waiting for a
 * writer), after checking on that handle that it is a regular file of at most `maxBytes`; never reads more bytes
 * than that check found (plus one, to tell a file that grew).
 * @returns the text, or `undefined` when the path is not a regular file.
 * @throws HistoryFileError when it is missing, unreadable, over the limit or grew while read.
 */
async function readHistoryFile(file: string, maxBytes: number): Promise<string | undefined> {
  const fail = (err: unknown): never => {
    const e = err as NodeJS.ErrnoException;
    throw new HistoryFileError(file, e.code === 'ENOENT' ? 'no such file or directory' : e.message);
  };
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(fail);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    if (info.size > maxBytes) throw new HistoryFileError(file, `${info.size} bytes, over the ${maxBytes}-byte limit of a history file`);
    const buffer = Buffer.allocUnsafe(info.size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled).catch(fail);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > info.size) throw new HistoryFileError(file, 'the file grew while it was read');
    return buffer.toString('utf8', 0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * The histories at `location`, read one at a time as they are asked for, so a consumer that stops after `n` (as
 * `skein replay --limit n` does) reads and parses only what it used: one `.json` file, or the `.json` files directly
 * in a folder, sorted by name. In a folder, an entry that is not a regular file is skipped (`onSkip`); a named file
 * that is not one is an error. Every file is opened without blocking and read only up to `maxBytes`.
 * @throws HistoryFileError naming the location or file that is missing, not a regular file or folder, over the
 *   size limit, or not a history (see `historyFromText`), when the consumer reaches it.
 */
export async function* historyFiles(location: string, options: HistoryFilesOptions = {}): AsyncGenerator<ReplayHistory> {
  const maxBytes = options.maxBytes ?? HISTORY_FILE_MAX_BYTES;
  const info = await stat(location).catch((err: NodeJS.ErrnoException) => {
    throw new HistoryFileError(location, err.code === 'ENOENT' ? 'no such file or directory' : err.message);
  });
  if (!info.isDirectory()) {
    const text = await readHistoryFile(location, maxBytes);
    if (text === undefined) throw new HistoryFileError(location, 'not a regular file or a folder');
    yield historyFromText(location, text);
    return;
  }
  const entries = (await readdir(location, { withFileTypes: true }))
    .filter((e) => /\.json$/i.test(e.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const file = path.join(location, entry.name);
    // The listing's type first (no system call); the handle's type again, in case the entry changed since.
    const text = entry.isFile() ? await readHistoryFile(file, maxBytes) : undefined;
    if (text === undefined) {
      options.onSkip?.(file, 'not a regular file');
      continue;
    }
    yield historyFromText(file, text);
  }
}

/**
 * Reads every history at `location` ({@link historyFiles}) before it returns, so a bad one is reported before any
 * replay; entries of a folder that are not regular files are skipped.
 * @returns an empty list for a folder without `.json` files.
 * @throws HistoryFileError naming the file that is missing, too large or not a history.
 */
export async function readHistoryFiles(location: string, options: HistoryFilesOptions = {}): Promise<ReplayHistory[]> {
  const histories: ReplayHistory[] = [];
  for await (const history of historyFiles(location, options)) histories.push(history);
  return histories;
}
