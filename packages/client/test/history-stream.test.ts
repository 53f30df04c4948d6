import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SkeinApiError, SkeinClient, SkeinConnectionError, type HistoryStreamFrame, type ReconnectInfo } from '../src/index.js';

const RUN = '0199a6b2-6d4c-7c3e-9f5a-1b2c3d4e5f60';
const meta = { workflowId: 'w', runId: RUN, workflowType: 'waiter', taskQueue: 'main', status: 'running', startedAt: 1, completedAt: null, historyLength: 0 };

let server: Server | undefined;

/** An SSE server: `handler` gets the request and a writer for one frame. */
async function sse(handler: (req: IncomingMessage, res: ServerResponse, frame: (event: string, data: unknown, id?: number) => void) => void): Promise<string> {
  server = createServer((req, res) => {
    const frame = (event: string, data: unknown, id?: number) =>
      res.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    handler(req, res, frame);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

function collect() {
  const frames: HistoryStreamFrame[] = [];
  const reconnects: ReconnectInfo[] = [];
  return {
    frames,
    reconnects,
    ids: () => frames.flatMap((f) => (f.type === 'history' ? [f.event.eventId] : [])),
    options: {
      onFrame: (f: HistoryStreamFrame) => void frames.push(f),
      onReconnect: (i: ReconnectInfo) => void reconnects.push(i),
      minRetryDelayMs: 10,
      maxRetryDelayMs: 50,
    },
  };
}

describe('followHistory', () => {
  it('resumes a dropped stream on the pinned run with Last-Event-ID, delivering each event once and in order', async () => {
    const requests: Array<{ url?: string; lastEventId?: string; accept?: string }> = [];
    const url = await sse((req, res, frame) => {
      requests.push({ url: req.url, lastEventId: req.headers['last-event-id'] as string | undefined, accept: req.headers.accept });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      frame('workflow', meta);
      if (requests.length === 1) {
        for (const id of [1, 2, 3]) frame('history', { eventId: id, eventType: 'EVENT_TYPE_X' }, id);
        setTimeout(() => res.destroy(), 50); // the connection drops mid-stream, once the frames are out
        return;
      }
      // The second connection replays event 3 (a server may): it must not be delivered twice.
      for (const id of [3, 4, 5]) frame('history', { eventId: id, eventType: 'EVENT_TYPE_X' }, id);
      frame('done', { workflowId: 'w', runId: RUN, status: 'completed' });
      res.end();
    });
    const c = collect();
    const done = await new SkeinClient({ url }).followHistory('w', c.options);
    expect(done).toEqual({ workflowId: 'w', runId: RUN, status: 'completed' });
    expect(c.ids()).toEqual([1, 2, 3, 4, 5]);
    expect(c.frames.filter((f) => f.type === 'workflow')).toHaveLength(1);
    expect(requests).toEqual([
      { url: '/workflow/w/history/stream', lastEventId: undefined, accept: 'text/event-stream' },
      { url: `/workflow/w/runs/${RUN}/history/stream`, lastEventId: '3', accept: 'text/event-stream' },
    ]);
    expect(c.reconnects).toHaveLength(1);
    expect(c.reconnects[0]).toMatchObject({ lastEventId: 3 });
  });

  it('keeps retrying while the API is down and resumes when it answers again', async () => {
    let calls = 0;
    const url = await sse((_req, res, frame) => {
      calls += 1;
      if (calls <= 3)
        return void res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"InternalError","message":"restarting","workflowId":null}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      frame('workflow', meta);
      frame('history', { eventId: 1, eventType: 'EVENT_TYPE_X' }, 1);
      frame('done', { workflowId: 'w', runId: RUN, status: 'failed' });
      res.end();
    });
    const c = collect();
    await expect(new SkeinClient({ url }).followHistory('w', c.options)).resolves.toMatchObject({ status: 'failed' });
    expect(c.reconnects.map((r) => r.retriesLeft)).toEqual([8, 7, 6]);
    expect(c.ids()).toEqual([1]);
  });

  it('gives up with SkeinConnectionError after `retries` attempts that deliver nothing', async () => {
    const url = await sse((_req, res) => res.destroy());
    const c = collect();
    const err = await new SkeinClient({ url }).followHistory('w', { ...c.options, retries: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkeinConnectionError);
    expect(c.reconnects).toHaveLength(2);
  });

  it('does not retry a 4xx: WorkflowNotFoundError is thrown at once', async () => {
    let calls = 0;
    const url = await sse((_req, res) => {
      calls += 1;
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":"WorkflowNotFoundError","message":"Workflow execution not found","workflowId":"w"}');
    });
    const err = await new SkeinClient({ url }).followHistory('w', collect().options).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkeinApiError);
    expect(err).toMatchObject({ status: 404, type: 'WorkflowNotFoundError' });
    expect(calls).toBe(1);
  });

  it('drops and resumes a connection that goes silent for idleTimeoutMs', async () => {
    let calls = 0;
    const url = await sse((_req, res, frame) => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      frame('workflow', meta);
      if (calls === 1) return frame('history', { eventId: 1, eventType: 'EVENT_TYPE_X' }, 1); // then silence
      frame('history', { eventId: 2, eventType: 'EVENT_TYPE_X' }, 2);
      frame('done', { workflowId: 'w', runId: RUN, status: 'completed' });
      res.end();
    });
    const c = collect();
    await new SkeinClient({ url }).followHistory('w', { ...c.options, idleTimeoutMs: 300 });
    expect(c.ids()).toEqual([1, 2]);
    expect(calls).toBe(2);
  });

  it('an error thrown by onFrame ends the follow with that error, without reconnecting', async () => {
    let calls = 0;
    const url = await sse((_req, res, frame) => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      frame('workflow', meta);
      frame('history', { eventId: 1, eventType: 'EVENT_TYPE_X' }, 1);
    });
    const c = collect();
    const boom = new RangeError('consumer failed');
    const pending = new SkeinClient({ url }).followHistory('w', {
      ...c.options,
      onFrame: (f) => {
        if (f.type === 'history') throw boom;
      },
    });
    await expect(pending).rejects.toBe(boom);
    expect(calls).toBe(1);
    expect(c.reconnects).toHaveLength(0);
  });

  it('rejects with the signal reason when aborted', async () => {
    const url = await sse((_req, res, frame) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      frame('workflow', meta);
    });
    const controller = new AbortController();
    const c = collect();
    const pending = new SkeinClient({ url }).followHistory('w', { ...c.options, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop following')), 100);
    await expect(pending).rejects.toThrow('stop following');
    expect(c.reconnects).toHaveLength(0);
  });
});
