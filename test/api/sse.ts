import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** A parsed server-sent events stream read with fetch. */
export interface SseReader {
  status: number;
  headers: Headers;
  /** Frames received so far (comments excluded). */
  frames: EventSourceMessage[];
  /** Number of comment lines (keep-alives) received. */
  comments: number;
  /** Resolves with the first frame (at index ≥ `from`) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (f: EventSourceMessage) => boolean, timeoutMs?: number): Promise<EventSourceMessage>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  abort(): void;
}

/** Opens `url` as an SSE stream. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const frames: EventSourceMessage[] = [];
  const waiters: Array<() => void> = [];
  let comments = 0;
  const parser = createParser({
    onEvent(e) {
      frames.push(e);
      for (const w of waiters.splice(0)) w();
    },
    onComment() {
      comments += 1;
    },
  });
  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by the test
    }
    for (const w of waiters.splice(0)) w();
  })();
  let done = false;
  void ended.then(() => (done = true));
  const reader: SseReader = {
    status: res.status,
    headers: res.headers,
    frames,
    get comments() {
      return comments;
    },
    async waitFor(pred, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const f = frames.find(pred);
        if (f) return f;
        if (done) throw new Error(`stream ended without the expected frame; got ${frames.map((x) => x.event).join(',')}`);
        const left = end - Date.now();
        if (left <= 0) throw new Error('timed out waiting for a frame');
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
    ended,
    abort: () => controller.abort(),
  };
  return reader;
}
