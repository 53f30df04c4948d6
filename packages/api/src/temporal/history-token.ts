import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { validationError } from '../errors.js';

/**
 * A history cursor: where the next API page starts.
 * - `w`, `r`: the execution and run it belongs to;
 * - `t`: the engine's continuation token (base64) of the engine page that holds the next event, or null for the
 *   engine's first page;
 * - `o`: how many events of that engine page were already delivered (≥ 0): the next API page is cut from the
 *   engine page at `t` starting at index `o`;
 * - `n`: the id of the next event to deliver (≥ 1). Events below it are never delivered again, whatever the
 *   engine page holds, so a cursor built from an event id alone (`t: null, o: 0`) resumes correctly too.
 */
export interface HistoryCursor {
  w: string;
  r: string;
  t: string | null;
  o: number;
  n: number;
}

const cursorSchema = z.object({
  v: z.literal(2),
  w: z.string().min(1).max(1000),
  r: z.guid(),
  t: z
    .string()
    .max(6000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .nullable(),
  o: z.number().int().min(0).max(100_000),
  n: z.number().int().min(1),
  s: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** The signed text of a cursor: its fields as JSON in a fixed order. */
function signedText(c: HistoryCursor): string {
  return JSON.stringify({ v: 2, w: c.w, r: c.r, t: c.t, o: c.o, n: c.n });
}

function invalid(reason: string) {
  return validationError('Invalid pageToken', [{ code: 'invalid_page_token', path: ['query', 'pageToken'], message: reason }]);
}

/**
 * Signs and checks the history routes' opaque `pageToken`s. A token is base64 of the cursor as JSON with `s`, the
 * HMAC-SHA256 (base64url) of its other fields: a client can read a token but not change it (skip to another engine
 * token, another offset, another run) without the API noticing.
 *
 * The key is per API process unless configured (`SKEIN_HISTORY_TOKEN_KEY`): API processes that share one key accept
 * each other's tokens (several processes behind a load balancer, or a restarted process); with their own random
 * key, a token is good only on the process that issued it, until it restarts.
 */
export class HistoryTokens {
  /** Prepared once: handing createHmac raw bytes makes it import the key on every call. */
  readonly #key: KeyObject;

  /**
   * @param key the HMAC key (any length; a configured key is at least 32 characters); omitted: 32 random bytes,
   *   so tokens are good only on this instance.
   */
  constructor(key: string | Uint8Array = randomBytes(32)) {
    this.#key = createSecretKey(Buffer.from(key));
  }

  #mac(c: HistoryCursor): Buffer {
    return createHmac('sha256', this.#key).update(signedText(c)).digest();
  }

  /** Encodes and signs a cursor as a `pageToken` (base64). */
  encode(c: HistoryCursor): string {
    const s = this.#mac(c).toString('base64url');
    return Buffer.from(JSON.stringify({ v: 2, w: c.w, r: c.r, t: c.t, o: c.o, n: c.n, s }), 'utf8').toString('base64');
  }

  /**
   * Checks a `pageToken`'s signature and that it belongs to the execution (and run, when pinned) of the request.
   * @throws ApiError `ValidationError` (400) for a malformed, forged (signature mismatch, including a token signed
   *   by an API process with another key) or foreign token.
   */
  decode(token: string, expect: { workflowId: string; runId?: string | undefined }): HistoryCursor {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) throw invalid('not base64');
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    } catch {
      throw invalid('not a page token');
    }
    const parsed = cursorSchema.safeParse(raw);
    if (!parsed.success) throw invalid('not a page token');
    const { w, r, t, o, n, s } = parsed.data;
    const c: HistoryCursor = { w, r, t, o, n };
    if (!timingSafeEqual(Buffer.from(s, 'base64url'), this.#mac(c))) {
      throw invalid('signature does not match: a changed token, or one issued by an API process with another SKEIN_HISTORY_TOKEN_KEY');
    }
    if (w !== expect.workflowId) throw invalid('token belongs to another workflow execution');
    if (expect.runId !== undefined && r.toLowerCase() !== expect.runId.toLowerCase()) throw invalid('token belongs to another run');
    return c;
  }
}
