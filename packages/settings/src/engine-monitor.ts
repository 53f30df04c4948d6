/**
 * What the monitor needs of an engine connection: Temporal's `Client` and `Connection` both fit. `GetSystemInfo`
 * is called, under a deadline, or `DescribeNamespace` where a namespace is given.
 */
export interface HealthCheckedEngine {
  withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R>;
  workflowService: {
    getSystemInfo(request: Record<string, never>): Promise<unknown>;
    describeNamespace(request: { namespace: string }): Promise<unknown>;
  };
}

/** The part of a pino logger the monitor writes to. */
interface MonitorLogger {
  info(msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of {@link monitorEngine}. Times in ms. */
export interface EngineMonitorOptions {
  /** Period between checks (`SKEIN_ENGINE_CHECK_INTERVAL_MS`), at least 10. */
  intervalMs: number;
  /** Consecutive failed checks after which `onLost` fires (`SKEIN_ENGINE_CHECK_FAILURES`), at least 1. */
  failures: number;
  /** Engine address, named in the reason given to `onLost`. */
  address: string;
  /** The namespace the process uses: each check asks the engine for it (`pingEngine`). Default: the engine alone. */
  namespace?: string;
  /** Fired once, with a one-line reason, when `failures` checks in a row failed; the monitor then stops. */
  onLost: (reason: string) => void;
  /** Set after every check: `false` from the first failure until a check succeeds (read by `GET /ready`). */
  health?: { healthy: boolean };
  /** Where failures and recoveries are logged; default nowhere. */
  logger?: MonitorLogger;
}

/** A running monitor. */
export interface EngineMonitor {
  /** Stops checking; no callback fires afterwards. Calling it again does nothing. */
  stop(): void;
}

/**
 * One engine health check with a deadline `timeoutMs` from now: `DescribeNamespace` of `namespace` where one is given
 * (an engine that answers but has no such namespace fails every call of the process that uses it), else
 * `GetSystemInfo`.
 * @throws the transport's error when the engine does not answer in time; the engine's NOT_FOUND for a missing namespace.
 */
export async function pingEngine(engine: HealthCheckedEngine, timeoutMs: number, namespace?: string): Promise<void> {
  await engine.withDeadline(Date.now() + timeoutMs, () =>
    namespace === undefined ? engine.workflowService.getSystemInfo({}) : engine.workflowService.describeNamespace({ namespace }),
  );
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
}

/**
 * Watches the engine connection of a worker or of the API. Checks start on a fixed schedule, every `intervalMs`,
 * whatever the previous check is doing; each check's deadline is `min(5 000, 0.9 × intervalMs)` ms, so it ends
 * before the next one starts and a slow or dead engine never delays the schedule. `onLost` therefore fires at most
 * `intervalMs × failures` ms after the engine went away.
 */
export function monitorEngine(engine: HealthCheckedEngine, options: EngineMonitorOptions): EngineMonitor {
  const deadlineMs = Math.max(10, Math.min(5_000, Math.floor(options.intervalMs * 0.9)));
  let failures = 0;
  let stopped = false;
  const setHealthy = (healthy: boolean) => {
    if (options.health) options.health.healthy = healthy;
  };
  const check = async () => {
    try {
      await pingEngine(engine, deadlineMs, options.namespace);
      if (stopped) return;
      if (failures > 0) options.logger?.info('engine health check recovered');
      failures = 0;
      setHealthy(true);
    } catch (err) {
      if (stopped) return;
      failures += 1;
      setHealthy(false);
      options.logger?.warn({ err, failures, threshold: options.failures }, 'engine health check failed');
      if (failures >= options.failures) {
        stop();
        const reason = `Temporal server at ${options.address} failed ${failures} consecutive health checks: ${oneLine(err)}`;
        options.logger?.error({ failures }, reason);
        options.onLost(reason);
      }
    }
  };
  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return { stop };
}
