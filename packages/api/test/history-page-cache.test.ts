import { describe, expect, it } from 'vitest';
import { EnginePageCache, type EnginePage } from '../src/temporal/history-page-cache.js';
import { temporal } from '../src/temporal/proto.js';

const HistoryEvent = temporal.api.history.v1.HistoryEvent;
const RUN = '01a1feb5-6305-7189-a3cf-53082e47aa2b';

/** `n` events decoded from the wire, as the engine client returns them (protobuf messages with prototypes). */
function decodedEvents(n: number, payloadBytes = 0) {
  return Array.from({ length: n }, (_, i) =>
    HistoryEvent.decode(
      HistoryEvent.encode({
        eventId: i + 1,
        eventType: temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
        activityTaskScheduledEventAttributes: {
          activityType: { name: 'wf#step' },
          input: { payloads: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.alloc(payloadBytes, 1) }] },
        },
      }).finish(),
    ),
  );
}

const page = (events: EnginePage['events'], next: string | null = 'dG9rZW4='): EnginePage => ({ events, nextPageToken: next });

describe('EnginePageCache', () => {
  it('keys pages by run (run id in any case) and engine token', () => {
    const cache = new EnginePageCache();
    const first = page(decodedEvents(3));
    cache.set('wf', RUN, null, first, true);
    cache.set('wf', RUN, 'dG9rZW4=', page(decodedEvents(1), null), true);
    expect(cache.get('wf', RUN.toUpperCase(), null)).toBe(first);
    expect(cache.get('wf', RUN, 'dG9rZW4=')?.events).toHaveLength(1);
    expect(cache.get('other', RUN, null)).toBeUndefined();
    expect(cache.get('wf', '01a1feb5-0000-7000-8000-000000000000', null)).toBeUndefined();
    expect(cache.has('wf', RUN, null)).toBe(true);
  });

  it('sizes decoded protobuf events by their own data, quickly, and evicts the least recently used beyond maxBytes', () => {
    const cache = new EnginePageCache({ maxBytes: 6 * 1024 * 1024 });
    const started = performance.now();
    for (let i = 0; i < 5; i++) cache.set('wf', RUN, `t${i}`, page(decodedEvents(1000, 1024)), true);
    // 1,000 events of a 1 KiB payload each: about 1.2 MB a page, counted twice (its events' JSON renders), so only
    // the last two fit.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(cache.get('wf', RUN, 't0')).toBeUndefined();
    expect(cache.get('wf', RUN, 't2')).toBeUndefined();
    expect(cache.get('wf', RUN, 't3')).toBeDefined();
    expect(cache.get('wf', RUN, 't4')).toBeDefined();
  });

  it('keeps an open run’s page for openTtlMs and a closed run’s for closedTtlMs', async () => {
    const cache = new EnginePageCache({ openTtlMs: 30, closedTtlMs: 10_000 });
    cache.set('wf', RUN, 'open', page(decodedEvents(2)), false);
    cache.set('wf', RUN, 'closed', page(decodedEvents(2)), true);
    await expect.poll(() => cache.get('wf', RUN, 'open'), { timeout: 2000, interval: 20 }).toBeUndefined();
    expect(cache.get('wf', RUN, 'closed')).toBeDefined();
  });

  it('reads a page ahead once, serves it to the next reader and stores it; a failed read-ahead is dropped', async () => {
    const cache = new EnginePageCache();
    let reads = 0;
    const ahead = page(decodedEvents(4), null);
    cache.readAhead('wf', RUN, 'next', async () => {
      reads++;
      return ahead;
    });
    cache.readAhead('wf', RUN, 'next', async () => {
      reads++;
      return ahead;
    });
    expect(await cache.pending('wf', RUN, 'next')).toBe(ahead);
    expect(reads).toBe(1);
    expect(cache.get('wf', RUN, 'next')).toBe(ahead);
    cache.readAhead('wf', RUN, 'broken', () => Promise.reject(new Error('engine down')));
    expect(await cache.pending('wf', RUN, 'broken')).toBeUndefined();
    expect(cache.has('wf', RUN, 'broken')).toBe(false);
  });
});
