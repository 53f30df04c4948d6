import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

/** One engine health check: `GetSystemInfo` with a deadline `timeoutMs` from now. Resolves when the engine answered. */
export async function pingEngine(client: Client, timeoutMs: number): Promise<void> {
  await client.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
}

/** Options of {@link startReadinessMonitor}. */
export interface ReadinessOptions {
  /** Period between checks, ms (`SKEIN_READY_INTERVAL_MS`). */
  intervalMs: number;
  /** Consecutive failed checks after which `onFatal` fires (`SKEIN_READY_FAILURES`). */
  failures: number;
  /** Engine address, for the fatal reason. */
  address: string;
  logger: Logger;
  /** Set on every check: `false` while the engine fails its checks (read by `GET /ready`). */
  health: { healthy: boolean };
  /** Fired once, with a one-line reason, when `failures` checks in a row failed. */
  onFatal: (reason: string) => void;
}

/**
 * The readiness monitor (SPEC "/ready", CONTRACT `SKEIN_READY_INTERVAL_MS` / `SKEIN_READY_FAILURES`). Checks
 * start on a fixed schedule, every `intervalMs`, whatever the previous check is doing: each check's deadline is
 * `min(5 000, 0.9 × intervalMs)` ms, so it ends before the next one starts and a slow or dead engine never
 * delays the schedule. `onFatal` therefore fires at most `intervalMs × failures` ms after the engine went away.
 * @returns a function that stops the monitor.
 */
export function startReadinessMonitor(client: Client, options: ReadinessOptions): () => void {
  const deadlineMs = Math.max(10, Math.min(5_000, Math.floor(options.intervalMs * 0.9)));
  let failures = 0;
  let fatal = false;
  const oneLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
  const check = async () => {
    try {
      await pingEngine(client, deadlineMs);
      if (fatal) return;
      if (!options.health.healthy) options.logger.info('engine health check recovered');
      failures = 0;
      options.health.healthy = true;
    } catch (err) {
      if (fatal) return;
      failures += 1;
      options.health.healthy = false;
      options.logger.warn({ err, failures, threshold: options.failures }, 'engine health check failed');
      if (failures >= options.failures) {
        fatal = true;
        clearInterval(timer);
        const reason = `Temporal server at ${options.address} failed ${failures} consecutive health checks: ${oneLine(err)}`;
        options.logger.error({ failures }, reason);
        options.onFatal(reason);
      }
    }
  };
  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
