import { EventSourceParserStream } from 'eventsource-parser/stream';
import pRetry from 'p-retry';
import { isTransient, SkeinApiError, SkeinConnectionError } from './errors.js';
import type { HistoryEvent, HistoryStreamDone, WorkflowMeta } from './types.js';

/** A frame of the history stream handed to {@link FollowHistoryOptions.onFrame}. */
export type HistoryStreamFrame = { type: 'workflow'; workflow: WorkflowMeta } | { type: 'history'; event: HistoryEvent };

/** What {@link FollowHistoryOptions.onReconnect} is told before each new connection attempt. */
export interface ReconnectInfo {
  /** Why the previous connection ended (a SkeinConnectionError, a 5xx SkeinApiError, or a dropped stream). */
  error: Error;
  /** Delay before the next attempt, ms. */
  delayMs: number;
  /** Attempts left without progress before giving up. */
  retriesLeft: number;
  /** The stream resumes after this event id. */
  lastEventId: number;
}

/** Options of `SkeinClient.followHistory`. */
export interface FollowHistoryOptions {
  /** Follow this run; by default the latest run, pinned by the first `workflow` frame for every reconnection. */
  runId?: string;
  /** Start after this event id (0 = from the first event). */
  lastEventId?: number;
  /** Decode input and output payloads in events. */
  includePayloads?: boolean;
  /** Called for the `workflow` metadata (once) and each history event (in order, never twice). */
  onFrame(frame: HistoryStreamFrame): void | Promise<void>;
  /** Called before each reconnection. */
  onReconnect?(info: ReconnectInfo): void;
  /** Ends the stream; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Reconnection attempts in a row that deliver nothing new before giving up (default 8). A connection that
   * delivers events resets the count.
   */
  retries?: number;
  /** First reconnection delay in ms (default 250), doubled per attempt up to `maxRetryDelayMs` (default 5 000). */
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /**
   * A connection silent for this long (ms), not even a keep-alive comment, is dropped and resumed. Default
   * 45 000: three of the server's 15 s keep-alive periods.
   */
  idleTimeoutMs?: number;
}

/** How to reach the API (the client's settings). */
export interface StreamTransport {
  url: string;
  headers: Record<string, string>;
  fetch: typeof fetch;
}

/** `onFrame` threw: its error ends the follow as it is, never retried. */
class FrameHandlerError extends Error {
  constructor(override readonly cause: unknown) {
    super('onFrame failed');
  }
}

/** The connection ended before `event: done`; `progressed` says whether it delivered anything new. */
class StreamDroppedError extends Error {
  override name = 'StreamDroppedError';
  constructor(
    readonly progressed: boolean,
    cause?: unknown,
  ) {
    super('The history stream ended before the run closed', { cause });
  }
}

/**
 * Follows one run's history over `GET /workflow/{id}[/runs/{rid}]/history/stream` (docs/reference/api-contract.md, "Endpoints"),
 * parsing server-sent events with eventsource-parser. After a dropped connection, an unreachable API or a 5xx,
 * it reconnects with exponential backoff (p-retry) to the run-pinned route with `Last-Event-ID`, so each event
 * is delivered once and in order. 4xx answers are not retried.
 * @returns the `done` frame once the run closes
 * @throws SkeinApiError (4xx, or the stream's own `error` frame after retries), SkeinConnectionError after
 *   `retries` attempts without progress, or the signal's reason when aborted
 */
export async function followHistory(transport: StreamTransport, workflowId: string, options: FollowHistoryOptions): Promise<HistoryStreamDone> {
  let runId = options.runId;
  let lastEventId = options.lastEventId ?? 0;
  let sentWorkflow = false;
  const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
  const deliver = async (frame: HistoryStreamFrame) => {
    try {
      await options.onFrame(frame);
    } catch (err) {
      throw new FrameHandlerError(err);
    }
  };

  const connect = async (): Promise<HistoryStreamDone> => {
    const path = runId
      ? `/workflow/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}/history/stream`
      : `/workflow/${encodeURIComponent(workflowId)}/history/stream`;
    const url = new URL(transport.url + path);
    if (options.includePayloads) url.searchParams.set('includePayloads', 'true');
    const connection = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, connection.signal]) : connection.signal;
    let idle: NodeJS.Timeout | undefined;
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`no data for ${idleTimeoutMs} ms`)), idleTimeoutMs);
    };
    let progressed = false;
    try {
      touch();
      let res: Response;
      try {
        res = await transport.fetch(url, {
          headers: { ...transport.headers, accept: 'text/event-stream', ...(lastEventId > 0 ? { 'last-event-id': String(lastEventId) } : {}) },
          signal,
        });
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        throw new SkeinConnectionError(url.href, err, connection.signal.aborted);
      }
      if (!res.ok || !res.body) {
        const text = await res.text().catch(() => '');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON: fromResponse reports the status line */
        }
        throw SkeinApiError.fromResponse(res, body);
      }
      const frames = res.body
        .pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, c) => (touch(), c.enqueue(chunk)) }))
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream());
      try {
        for await (const frame of frames) {
          const data = JSON.parse(frame.data) as unknown;
          if (frame.event === 'workflow') {
            const meta = data as WorkflowMeta;
            runId ??= meta.runId;
            if (!sentWorkflow) {
              sentWorkflow = true;
              progressed = true;
              await deliver({ type: 'workflow', workflow: meta });
            }
          } else if (frame.event === 'history') {
            const event = data as HistoryEvent;
            if (event.eventId <= lastEventId) continue;
            lastEventId = event.eventId;
            progressed = true;
            await deliver({ type: 'history', event });
          } else if (frame.event === 'done') {
            return data as HistoryStreamDone;
          } else if (frame.event === 'error') {
            const body = data as { error: string; message: string; workflowId?: string | null };
            throw new SkeinApiError({ status: 500, type: body.error, message: body.message, workflowId: body.workflowId ?? workflowId });
          }
        }
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (err instanceof SkeinApiError || err instanceof FrameHandlerError) throw err;
        throw new StreamDroppedError(progressed, err);
      }
      throw new StreamDroppedError(progressed);
    } finally {
      clearTimeout(idle);
      connection.abort();
    }
  };

  try {
    return await pRetry(connect, {
      retries: options.retries ?? 8,
      minTimeout: options.minRetryDelayMs ?? 250,
      maxTimeout: options.maxRetryDelayMs ?? 5_000,
      factor: 2,
      randomize: true,
      signal: options.signal,
      // A connection that delivered new events does not count against the budget: a long follow survives any
      // number of API restarts, while an API that keeps failing is given up on after `retries` attempts.
      shouldConsumeRetry: ({ error }) => !(error instanceof StreamDroppedError && error.progressed),
      shouldRetry: ({ error }) => error instanceof StreamDroppedError || isTransient(error),
      onFailedAttempt: ({ error, retriesLeft, retryDelay }) => {
        if (retriesLeft > 0 && (error instanceof StreamDroppedError || isTransient(error))) {
          options.onReconnect?.({ error, delayMs: retryDelay, retriesLeft, lastEventId });
        }
      },
    });
  } catch (err) {
    if (err instanceof StreamDroppedError) throw new SkeinConnectionError(transport.url, err);
    if (err instanceof FrameHandlerError) throw err.cause;
    throw err;
  }
}
