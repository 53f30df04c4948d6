/**
 * A client that talks to the API the way the seed system's command-line client does (its API client is generated
 * from the seed's OpenAPI document): plain `fetch`, the seed's routes and query parameters, and the seed client's
 * reading of the answers. Nothing here knows Skein's own conveniences; if a request or a reading below fails, a
 * seed client fails the same way.
 *
 * - `history`: `GET /workflow/{id}/history?pageSize=50` (plus `runId` once it is known, and `pageToken`), following
 *   `nextPageToken` until it is null; the `workflow` metadata of the first page; steps correlated from
 *   `eventTypeName` (`ACTIVITY_TASK_SCHEDULED` opens a step; started/completed/failed/… attach by
 *   `scheduledEventId`), named by the scheduled event's `stepName` or the part after `#` of its activity type.
 * - `runs`: `GET /workflow/runs`, dates parsed with date-fns `parseISO` (which throws on anything but a string).
 * - `stop` / `terminate` / `reset`: the deprecated latest-run routes the seed client still calls.
 */
import { formatDistanceStrict, parseISO } from 'date-fns';

/** One HTTP exchange. */
export interface Exchange<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A step as the seed client shows it in `history`. */
export interface SeedStep {
  name: string;
  technicalName: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
}

/** The seed client's view of a run's history. */
export interface SeedHistory {
  workflow: Record<string, any> | null;
  runId: string | null;
  events: Record<string, any>[];
  steps: SeedStep[];
  /** HTTP requests it took. */
  requests: number;
  /** Milliseconds from `workflow.startTime` to `workflow.closeTime` (null while running). */
  durationMs: number | null;
}

const TERMINAL = ['ACTIVITY_TASK_COMPLETED', 'ACTIVITY_TASK_FAILED', 'ACTIVITY_TASK_TIMED_OUT', 'ACTIVITY_TASK_CANCELED'];

function attributesOf(event: Record<string, any>): Record<string, any> | undefined {
  const key = Object.keys(event).find((k) => k.endsWith('EventAttributes'));
  return key ? event[key] : undefined;
}

/** The seed client's correlation of history events into steps, keyed by `eventTypeName` only. */
export function correlateSteps(events: Record<string, any>[]): SeedStep[] {
  const slots = new Map<string, { scheduled: Record<string, any>; started: boolean; terminal?: string }>();
  for (const e of events) {
    const type = e.eventTypeName ?? '';
    if (type === 'ACTIVITY_TASK_SCHEDULED') slots.set(String(e.eventId), { scheduled: e, started: false });
    else if (type === 'ACTIVITY_TASK_STARTED' || TERMINAL.includes(type)) {
      const slot = slots.get(String(attributesOf(e)?.scheduledEventId ?? ''));
      if (!slot) continue;
      if (type === 'ACTIVITY_TASK_STARTED') slot.started = true;
      else slot.terminal = type;
    }
  }
  return [...slots.values()].map(({ scheduled, started, terminal }) => {
    const attrs = attributesOf(scheduled) ?? {};
    const technicalName: string = attrs.activityType?.name ?? attrs.stepName ?? 'unknown';
    const name: string = attrs.stepName ?? (technicalName.includes('#') ? technicalName.split('#').pop()! : technicalName);
    const status = terminal === 'ACTIVITY_TASK_COMPLETED' ? 'completed' : terminal ? 'failed' : started ? 'running' : 'pending';
    return { name, technicalName, status };
  });
}

/** A seed-style client of the API at `baseUrl`. */
export function seedClient(baseUrl: string) {
  async function call<T = any>(method: string, path: string, body?: unknown): Promise<Exchange<T>> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }
  const enc = encodeURIComponent;

  return {
    call,

    /**
     * `history <workflowId> [--run-id]`: pages until `nextPageToken` is null. Throws after `maxRequests` requests
     * (the seed client has no such bound: against a server that never answers null it loops forever).
     */
    async history(workflowId: string, options: { runId?: string; includePayloads?: boolean; maxRequests?: number } = {}): Promise<SeedHistory> {
      const max = options.maxRequests ?? 100;
      let runId = options.runId;
      let pageToken: string | undefined;
      let workflow: Record<string, any> | null = null;
      const events: Record<string, any>[] = [];
      let requests = 0;
      for (;;) {
        if (requests >= max) throw new Error(`history did not end after ${max} requests`);
        const qs = new URLSearchParams({ pageSize: '50', includePayloads: String(options.includePayloads ?? false) });
        if (runId) qs.set('runId', runId);
        if (pageToken) qs.set('pageToken', pageToken);
        const res = await call('GET', `/workflow/${enc(workflowId)}/history?${qs}`);
        requests += 1;
        if (res.status !== 200) throw Object.assign(new Error(`history answered ${res.status}`), { response: res });
        workflow ??= res.body.workflow ?? null;
        runId ??= res.body.runId;
        events.push(...(res.body.events ?? []));
        pageToken = res.body.nextPageToken ?? undefined;
        if (!pageToken) break;
      }
      const start = workflow?.startTime ? parseISO(workflow.startTime).getTime() : NaN;
      const close = workflow?.closeTime ? parseISO(workflow.closeTime).getTime() : NaN;
      return { workflow, runId: runId ?? null, events, steps: correlateSteps(events), requests, durationMs: Number.isNaN(close) ? null : close - start };
    },

    /** `runs list`: the runs with their dates parsed and their durations formatted as the seed client does. */
    async runs(query: { workflowType?: string; catalog?: string; limit?: number } = {}) {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      const res = await call('GET', `/workflow/runs?${qs}`);
      if (res.status !== 200) throw new Error(`runs answered ${res.status}`);
      return (res.body.runs as Record<string, any>[]).map((run) => ({
        ...run,
        started: parseISO(run.startedAt),
        duration: run.completedAt ? formatDistanceStrict(parseISO(run.startedAt), parseISO(run.completedAt)) : 'running',
      }));
    },

    start: (workflowName: string, input: unknown) => call('POST', '/workflow/start', { workflowName, input }),
    run: (workflowName: string, input: unknown) => call('POST', '/workflow/run', { workflowName, input }),
    status: (workflowId: string) => call('GET', `/workflow/${enc(workflowId)}/status`),
    result: (workflowId: string) => call('GET', `/workflow/${enc(workflowId)}/result`),
    signal: (workflowId: string, name: string, payload: Record<string, unknown> = {}) =>
      call('POST', `/workflow/${enc(workflowId)}/signal/${enc(name)}`, { payload }),
    /** Deprecated latest-run routes, as the seed client calls them. */
    stop: (workflowId: string) => call('PATCH', `/workflow/${enc(workflowId)}/stop`),
    terminate: (workflowId: string, reason?: string) => call('POST', `/workflow/${enc(workflowId)}/terminate`, { reason }),
    reset: (workflowId: string, stepName: string, reason?: string) => call('POST', `/workflow/${enc(workflowId)}/reset`, { stepName, reason }),
  };
}
