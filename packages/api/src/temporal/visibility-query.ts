/**
 * Callers' visibility queries (Temporal's own list filter language, e.g. `WorkflowType = 'order' AND
 * ExecutionStatus = 'Running'`), as `GET /workflow/runs?query=` and `POST /workflow/batch` accept them.
 *
 * Skein never sends a caller's text alone: it always ANDs it, in parentheses and last, after clauses of its own
 * (the catalog's task queue, no `$catalog` registry runs). For that to hold, the caller's text must be one
 * self-contained expression, so that its parentheses cannot close Skein's group and add an `OR` outside it:
 * {@link assertSelfContained} checks that (parentheses balanced outside quoted strings, no comments) before
 * anything reaches the engine. The engine parses the query itself and refuses what it does not accept;
 * {@link refusedQuery} passes its reason on, sanitized.
 */
import { isGrpcServiceError } from '@temporalio/client';
import { ApiError } from '../errors.js';
import { GRPC, engineError, grpcCode } from './engine.js';

/** Longest visibility query a caller may send, in characters. */
export const MAX_QUERY_LENGTH = 4000;

/** Longest engine message passed on to the caller, in characters. */
const MAX_ENGINE_MESSAGE = 300;

/** Where the query came from, for the issue's path: the body's `query` or the query string's `query`. */
export type QueryOrigin = 'body' | 'query';

/** A string literal of the visibility query language: single quotes, backslash and quote escaped. */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function invalid(origin: QueryOrigin, message: string): ApiError {
  return new ApiError('ValidationError', {
    message: `Invalid query: ${message}`,
    issues: [{ code: 'invalid_query', path: [origin, 'query'], message }],
  });
}

/**
 * Checks that a caller's query is one self-contained expression: every parenthesis outside a quoted string
 * (`'…'`, `"…"`, `` `…` ``, backslash escapes and doubled quotes as the engine reads them) closes one opened
 * before it within the text, every string is closed, and there is no comment (`--`, `#`, `/*`), which could hide a
 * parenthesis from this check but not from the engine. It does not check the query's meaning: the engine does.
 * @throws ApiError `ValidationError` (400) naming `<origin>.query` otherwise.
 */
export function assertSelfContained(query: string, origin: QueryOrigin): void {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < query.length; i++) {
    const c = query[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) throw invalid(origin, `the ")" at character ${i + 1} closes a parenthesis the query did not open`);
    } else if (c === '#' || (c === '-' && query[i + 1] === '-') || (c === '/' && query[i + 1] === '*') || (c === '*' && query[i + 1] === '/')) {
      throw invalid(origin, `comments are not accepted (character ${i + 1})`);
    }
  }
  if (quote) throw invalid(origin, `a string opened with ${quote} is not closed`);
  if (depth > 0) throw invalid(origin, `${depth} parenthes${depth === 1 ? 'is is' : 'es are'} not closed`);
}

/**
 * The query Skein sends for a caller's query: `clauses` (Skein's own restrictions, already well formed) ANDed
 * together, then the caller's query in parentheses, last.
 * @throws ApiError `ValidationError` (400) when the caller's query is not self-contained ({@link assertSelfContained}).
 */
export function restrictQuery(clauses: string[], callerQuery: string | undefined, origin: QueryOrigin): string {
  if (callerQuery === undefined) return clauses.join(' AND ');
  assertSelfContained(callerQuery, origin);
  return [...clauses, `(${callerQuery})`].join(' AND ');
}

/** The engine's own explanation of a refused query, on one line, without control characters, at most 300 characters. */
export function sanitizeEngineMessage(message: string): string {
  const line = message
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_ENGINE_MESSAGE ? `${line.slice(0, MAX_ENGINE_MESSAGE - 1)}…` : line;
}

/** The `details` of the first gRPC error along `err`'s cause chain (the SDK wraps some in its own errors). */
function grpcDetails(err: unknown): string | undefined {
  let current = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (isGrpcServiceError(current)) return current.details;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Translates an engine error of a call that carried a caller's query: the engine refusing the query
 * (`INVALID_ARGUMENT`) → 400 `ValidationError` whose message is the engine's reason, sanitized (its character
 * positions count from the start of the whole query Skein sent, Skein's own clauses first); anything else as
 * {@link engineError} does.
 */
export function refusedQuery(err: unknown, origin: QueryOrigin): ApiError {
  if (grpcCode(err) !== GRPC.INVALID_ARGUMENT) return engineError(err);
  const raw = grpcDetails(err);
  // The engine's own "invalid query:" prefix would repeat Skein's.
  const reason = sanitizeEngineMessage(raw ? raw : 'the engine refused the query').replace(/^invalid query:\s*/i, '') || 'the engine refused the query';
  return new ApiError('ValidationError', {
    message: `Invalid query: ${reason}`,
    issues: [{ code: 'rejected_by_engine', path: [origin, 'query'], message: reason }],
    cause: err,
  });
}

/** Runs an engine call that carries a caller's query, translating its errors with {@link refusedQuery}. */
export async function withQuery<T>(origin: QueryOrigin, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw refusedQuery(err, origin);
  }
}
