import { z } from 'zod';
import { validationError } from '../errors.js';

/**
 * A history cursor: the run it belongs to (`w`, `r`), the next event id to deliver (`n`, ≥ 1) and the engine's
 * own continuation token (`t`, base64, or null to read from the start and skip to `n`).
 */
export interface HistoryCursor {
  w: string;
  r: string;
  n: number;
  t: string | null;
}

const cursorSchema = z.object({
  v: z.literal(1),
  w: z.string().min(1).max(1000),
  r: z.guid(),
  n: z.number().int().min(1),
  t: z
    .string()
    .max(6000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/)
    .nullable(),
});

/** Encodes a cursor as the opaque base64 `pageToken` of the history routes. */
export function encodeCursor(c: HistoryCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, w: c.w, r: c.r, n: c.n, t: c.t }), 'utf8').toString('base64');
}

function invalid(reason: string) {
  return validationError('Invalid pageToken', [{ code: 'invalid_page_token', path: ['query', 'pageToken'], message: reason }]);
}

/**
 * Decodes a `pageToken` and checks it belongs to the execution (and run, when pinned) of the request.
 * @throws ApiError `ValidationError` (400) for a malformed, forged or foreign token.
 */
export function decodeCursor(token: string, expect: { workflowId: string; runId?: string | undefined }): HistoryCursor {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) throw invalid('not base64');
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw invalid('not a page token');
  }
  const parsed = cursorSchema.safeParse(raw);
  if (!parsed.success) throw invalid('not a page token');
  const c = parsed.data;
  if (c.w !== expect.workflowId) throw invalid('token belongs to another workflow execution');
  if (expect.runId !== undefined && c.r.toLowerCase() !== expect.runId.toLowerCase()) throw invalid('token belongs to another run');
  return { w: c.w, r: c.r, n: c.n, t: c.t };
}
