import { inspect } from 'node:util';
import type Koa from 'koa';
import { ApiError, errorBody } from '../errors.js';
import type { ApiState } from '../route.js';

/**
 * The {@link ApiError} a thrown value is rendered as: itself, the contract error of a body-parser failure
 * (malformed JSON or a broken encoding → 400, too large → 413, unknown encoding → 415), else a 500 `InternalError`
 * whose cause is the value (logged, never shown).
 */
export function toApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : (fromFrameworkError(err) ?? new ApiError('InternalError', { cause: err }));
}

function fromFrameworkError(err: unknown): ApiError | undefined {
  const e = err as { status?: number; type?: string; name?: string; expose?: boolean; code?: string } | null;
  if (!e || typeof e !== 'object') return undefined;
  if (e.status === 413 || e.type === 'entity.too.large') return new ApiError('PayloadTooLargeError', { cause: err });
  if (e.status === 415 || e.type === 'encoding.unsupported')
    return new ApiError('UnsupportedMediaTypeError', { message: 'Unsupported Content-Encoding', cause: err });
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    // zlib could not decode a gzip/deflate/br body.
    return new ApiError('ValidationError', {
      message: 'Request body could not be decoded with its Content-Encoding',
      issues: [{ code: 'invalid_encoding', path: ['body'], message: 'Body is not valid for its Content-Encoding' }],
      cause: err,
    });
  }
  if (e.name === 'SyntaxError' || e.type === 'entity.parse.failed' || (e.status === 400 && e.expose)) {
    // The JSON parser's refusals of valid JSON (co-body's strict mode, bourne's prototype guard) say what they are.
    const message = (err as { message?: unknown }).message;
    const text = typeof message === 'string' ? message : '';
    const issue = text.includes('only supports object and array')
      ? { code: 'invalid_type', message: 'Request body must be a JSON object, not a bare value such as null or a string' }
      : text.includes('forbidden prototype property')
        ? { code: 'forbidden_key', message: 'Request body holds a "__proto__" key, which is refused' }
        : { code: 'invalid_json', message: 'Request body is not valid JSON' };
    return new ApiError('ValidationError', {
      message: issue.code === 'invalid_json' ? 'Malformed JSON body' : 'Invalid request body',
      issues: [{ code: issue.code, path: ['body'], message: issue.message }],
      cause: err,
    });
  }
  if (e.status === 411 || e.type === 'charset.unsupported' || e.type === 'request.size.invalid' || e.type === 'request.aborted') {
    return new ApiError('ValidationError', {
      message: 'Unsupported request body encoding',
      issues: [{ code: 'invalid_body', path: ['body'], message: 'Request body must be UTF-8 JSON' }],
      cause: err,
    });
  }
  return undefined;
}

/**
 * The one place errors become responses: renders {@link ApiError}s from the error table (`errors.ts`), maps
 * body-parser failures (malformed JSON or a broken encoding → 400, too large → 413, unknown encoding → 415), and turns anything else into a 500
 * `InternalError` with a generic message. The original error goes to the log with the request id, never to the
 * client.
 */
export function errorRenderer(): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (ctx.state.signal?.aborted && !ctx.res.writableEnded && (ctx.req.destroyed || ctx.res.destroyed)) {
        // The client went away (or the server is stopping): nobody to answer; not an error of ours.
        ctx.state.log?.info({ route: ctx.state.route ?? null, workflowId: ctx.state.workflowId ?? null }, 'request aborted');
        ctx.res.destroy();
        return;
      }
      const apiError = toApiError(err);
      const engineCause = apiError.cause ?? (apiError === err ? undefined : err);
      const log = ctx.state.log;
      if (log) {
        const fields = {
          errorType: apiError.type,
          workflowId: apiError.workflowId ?? ctx.state.workflowId ?? null,
          route: ctx.state.route ?? null,
          err: engineCause instanceof Error ? engineCause : engineCause === undefined ? undefined : new Error(inspect(engineCause)),
        };
        if (apiError.status >= 500) log.error(fields, 'request error');
        else log.debug(fields, 'client error');
      }
      if (ctx.res.headersSent || !ctx.writable) {
        // A stream already started: nothing can be rendered; end it.
        ctx.res.destroy();
        return;
      }
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.type = 'application/json';
      // An error of a request whose path names a valid id is tied to that execution.
      ctx.body = errorBody(apiError, ctx.state.pathWorkflowId ?? null);
    }
  };
}
