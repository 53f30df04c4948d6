import type { Connection } from '@temporalio/client';

/** Options of `watchEngine()`. Times in ms. */
export interface EngineWatchOptions {
  /** Health check period. Default 5 000. */
  intervalMs?: number;
  /** Consecutive failed checks (each with a `timeoutMs` deadline) after which `onLost` fires. Default 3. */
  failures?: number;
  timeoutMs?: number;
  onLost: (reason: string) => void;
}

/**
 * Periodically asks the engine for its system info; after `failures` consecutive failures (a bounded retry)
 * calls `onLost` once. Returns a function that stops watching.
 */
export function watchEngine(connection: Connection, options: EngineWatchOptions): () => void {
  const { intervalMs = 5000, failures = 3, timeoutMs = 3000, onLost } = options;
  let failed = 0;
  let stopped = false;
  let timer: NodeJS.Timeout;
  const tick = async () => {
    try {
      await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.getSystemInfo({}));
      failed = 0;
    } catch (err) {
      failed += 1;
      if (failed >= failures && !stopped) {
        stopped = true;
        onLost(`engine did not answer ${failed} health checks in a row: ${(err as Error).message.split('\n')[0]}`);
        return;
      }
    }
    if (!stopped) timer = setTimeout(tick, intervalMs).unref();
  };
  timer = setTimeout(tick, intervalMs).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
