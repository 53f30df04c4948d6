import type Koa from 'koa';
import type { ApiState } from '../route.js';

/**
 * Sets `ctx.state.signal`, aborted when the client goes away before the response is complete or when
 * `shutdown` aborts. Engine calls made for the request take this signal, so a disconnect releases them at once.
 */
export function abortSignal(shutdown: AbortSignal): Koa.Middleware<ApiState> {
  return async (ctx, next) => {
    const controller = new AbortController();
    const onClose = () => {
      if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
    };
    ctx.res.once('close', onClose);
    ctx.state.signal = AbortSignal.any([controller.signal, shutdown]);
    await next();
  };
}
