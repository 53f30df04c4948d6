import { LRUCache } from 'lru-cache';
import type { temporal as T } from '@temporalio/proto';

type IHistoryEvent = T.api.history.v1.IHistoryEvent;

/** One engine page of a run's history as the engine returned it. */
export interface EnginePage {
  events: IHistoryEvent[];
  /** The engine's continuation token after this page (base64), or null at the end. */
  nextPageToken: string | null;
}

/** Sizing of an {@link EnginePageCache}. */
export interface EnginePageCacheOptions {
  /** Upper bound of the cached pages' estimated size with their events' JSON renders, in bytes (default 64 MiB). */
  maxBytes?: number;
  /** How long a page of a run that was still open when read is kept, in ms (default 30 000). */
  openTtlMs?: number;
  /** How long a page of a closed run is kept, in ms (default 300 000): such a page can never change. */
  closedTtlMs?: number;
}

/**
 * Rough size of a value in bytes: byte arrays and strings by length, 16 bytes per other leaf and per object. Only
 * own properties count (a decoded protobuf message inherits its defaults and its reflection type from its
 * prototype, which is shared and would reach the whole schema); bounded in depth (history events are about 8 deep).
 */
function approxBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return value.length + 16;
  if (typeof value !== 'object') return 16;
  if (value instanceof Uint8Array) return value.byteLength + 16;
  if (depth > 12) return 16;
  let n = 16;
  if (Array.isArray(value)) {
    for (const v of value) n += approxBytes(v, depth + 1);
    return n;
  }
  for (const k of Object.keys(value)) n += approxBytes((value as Record<string, unknown>)[k], depth + 1);
  return n;
}

/**
 * Engine pages of history, kept so that the API pages cut from one engine page are served without asking the
 * engine again, and engine pages read ahead of a client that is paging a closed run.
 *
 * Keyed by run and engine token: the page at a token always starts at the same event, so an offset into it means
 * the same events whichever request read it. A page is cached only when it cannot change: every page of a closed
 * run (kept `closedTtlMs`), and a page of an open run that is not its last (kept `openTtlMs`); the caller never
 * stores the last page of an open run, which grows. Bounded by `maxBytes` (estimated) with least-recently-used
 * eviction.
 */
export class EnginePageCache {
  readonly #pages: LRUCache<string, EnginePage>;
  readonly #ahead: LRUCache<string, Promise<EnginePage>>;
  readonly #openTtlMs: number;
  readonly #closedTtlMs: number;

  constructor(options: EnginePageCacheOptions = {}) {
    this.#openTtlMs = options.openTtlMs ?? 30_000;
    this.#closedTtlMs = options.closedTtlMs ?? 300_000;
    this.#pages = new LRUCache<string, EnginePage>({
      maxSize: options.maxBytes ?? 64 * 1024 * 1024,
      // Counted twice: the JSON renders of a page's events (events.ts, `renderEvent`) live as long as the page does.
      sizeCalculation: (page) => Math.max(1, 2 * approxBytes(page.events)),
      ttl: this.#closedTtlMs,
    });
    // Pending read-aheads: a handful per reader, dropped once taken or failed.
    this.#ahead = new LRUCache<string, Promise<EnginePage>>({ max: 64, ttl: this.#openTtlMs });
  }

  static #key(workflowId: string, runId: string, token: string | null): string {
    return `${workflowId}\u0000${runId.toLowerCase()}\u0000${token ?? ''}`;
  }

  /** The cached page of run `workflowId`/`runId` at engine token `token` (null: the first page), if any. */
  get(workflowId: string, runId: string, token: string | null): EnginePage | undefined {
    return this.#pages.get(EnginePageCache.#key(workflowId, runId, token));
  }

  /**
   * Stores a page that cannot change any more: any page of a closed run (`closed`), or a page of an open run that
   * has a successor (never an open run's last page).
   */
  set(workflowId: string, runId: string, token: string | null, page: EnginePage, closed: boolean): void {
    this.#pages.set(EnginePageCache.#key(workflowId, runId, token), page, { ttl: closed ? this.#closedTtlMs : this.#openTtlMs });
  }

  /** Whether the page at `token` is cached or being read ahead. */
  has(workflowId: string, runId: string, token: string | null): boolean {
    const key = EnginePageCache.#key(workflowId, runId, token);
    return this.#pages.has(key) || this.#ahead.has(key);
  }

  /**
   * Starts reading the page at `token` ahead of the client (`read` performs the engine call); a closed run's page
   * read this way is stored once it arrives. Does nothing when that page is cached or already being read.
   */
  readAhead(workflowId: string, runId: string, token: string, read: () => Promise<EnginePage>): void {
    const key = EnginePageCache.#key(workflowId, runId, token);
    if (this.#pages.has(key) || this.#ahead.has(key)) return;
    const pending = read().then((page) => {
      this.#ahead.delete(key);
      this.set(workflowId, runId, token, page, true);
      return page;
    });
    pending.catch(() => this.#ahead.delete(key));
    this.#ahead.set(key, pending);
  }

  /** The read-ahead of the page at `token`, if one is pending (it settles to the page, or undefined on failure). */
  pending(workflowId: string, runId: string, token: string | null): Promise<EnginePage | undefined> | undefined {
    const p = this.#ahead.get(EnginePageCache.#key(workflowId, runId, token));
    return p?.catch(() => undefined);
  }

  /** Forgets every page (tests). */
  clear(): void {
    this.#pages.clear();
    this.#ahead.clear();
  }
}
