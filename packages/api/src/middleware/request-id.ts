import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { ApiState } from '../route.js';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Sets `ctx.state.requestId` (a valid incoming `X-Request-ID`, else a new UUID) and echoes it in the response. */
export function requestId(): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = VALID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-ID', id);
    await next();
  };
}
