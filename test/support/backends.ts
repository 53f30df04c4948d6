/**
 * Real observability backends for tests, started on free loopback ports from the binaries the system tier's setup
 * installs (`services.ts`: JAEGER_PATH / PROMETHEUS_PATH, else the cache `~/.cache/skein/bin`). A missing binary fails
 * the test with the command that installs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binaryCacheDir, freePort, startOnFreePorts } from '@skein/dev-server';

function binary(name: 'jaeger' | 'prometheus', envName: string): string {
  const file = process.env[envName] || path.join(binaryCacheDir(), name);
  if (!existsSync(file)) throw new Error(`${name} is not installed at ${file}: run "npm run services:install ${name}" (or set ${envName})`);
  return file;
}

/** A started backend process and its scratch directory. */
interface Started {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function run(file: string, args: string[], dir: string): Promise<Started> {
  const child = spawn(file, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitReady(url: string, started: Started, name: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`${name} exited (${started.child.exitCode}):\n${started.output()}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${name} not ready at ${url} within ${timeoutMs} ms:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A running Jaeger: where to send OTLP and where to query traces. */
export interface Jaeger {
  /** OTLP/HTTP base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`). */
  otlpHttp: string;
  /** OTLP/gRPC URL. */
  otlpGrpc: string;
  /** Query API base URL (`/api/services`, `/api/traces/<id>`). */
  query: string;
  /** The trace with this id (32 hex), or undefined while Jaeger has none. */
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  /**
   * The trace with this id once it holds a span of every operation in `names`, polled every 300 ms.
   * @throws Error after 30 s, naming the operations the trace has.
   */
  traceHolding(traceId: string, names: string[]): Promise<JaegerTrace>;
  stop(): Promise<void>;
}

/** A trace as Jaeger's query API answers it. */
export interface JaegerTrace {
  traceID: string;
  spans: Array<{
    spanID: string;
    operationName: string;
    processID: string;
    references: Array<{ refType: string; spanID: string; traceID: string }>;
    tags: Array<{ key: string; value: unknown }>;
  }>;
  processes: Record<string, { serviceName: string }>;
}

/**
 * Starts Jaeger (v2, all-in-one) with a configuration of its own instead of the built-in one, whose ports are
 * fixed (4317, 4318, 16686 and more): OTLP over gRPC and HTTP, in-memory storage, the query API, each on a free
 * loopback port (other ports when one was taken meanwhile: `startOnFreePorts`); no other receiver or extension.
 */
export async function startJaeger(): Promise<Jaeger> {
  const file = binary('jaeger', 'JAEGER_PATH');
  const { grpc, http, queryUrl, started } = await startOnFreePorts(async () => {
    const [grpc, http, query, queryGrpc] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-jaeger-'));
    const config = `
service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:${query}
    grpc:
      endpoint: 127.0.0.1:${queryGrpc}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: 127.0.0.1:${grpc}
      http:
        endpoint: 127.0.0.1:${http}
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
    await writeFile(path.join(dir, 'jaeger.yaml'), config);
    const started = await run(file, ['--config', path.join(dir, 'jaeger.yaml')], dir);
    const queryUrl = `http://127.0.0.1:${query}`;
    try {
      await waitReady(`${queryUrl}/api/services`, started, 'jaeger');
    } catch (err) {
      await started.stop();
      throw err;
    }
    return { grpc, http, queryUrl, started };
  });
  const trace = async (traceId: string): Promise<JaegerTrace | undefined> => {
    const res = await fetch(`${queryUrl}/api/traces/${traceId}`);
    if (res.status === 404) return undefined;
    const body = (await res.json()) as { data?: JaegerTrace[] };
    return body.data?.[0];
  };
  return {
    otlpHttp: `http://127.0.0.1:${http}`,
    otlpGrpc: `http://127.0.0.1:${grpc}`,
    query: queryUrl,
    trace,
    async traceHolding(traceId, names) {
      let last: JaegerTrace | undefined;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        last = await trace(traceId);
        const have = new Set(last?.spans.map((s) => s.operationName));
        if (names.every((n) => have.has(n))) return last!;
        await new Promise((r) => setTimeout(r, 300));
      }
      throw new Error(`trace ${traceId} lacks some of ${names.join(', ')}; has: ${last?.spans.map((s) => s.operationName).join(', ')}`);
    },
    stop: () => started.stop(),
  };
}

/** A running Prometheus. */
export interface Prometheus {
  url: string;
  /** Runs an instant PromQL query; resolves to its vector samples (labels and value). */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  /** The scrape targets' health as Prometheus sees them (`up`, last error). */
  targets(): Promise<Array<{ job: string; health: string; lastError: string }>>;
  stop(): Promise<void>;
}

/**
 * Starts Prometheus on a free loopback port (another when it was taken meanwhile: `startOnFreePorts`) with a scrape configuration for `targets` (job name → metrics URL),
 * scraped every second, its storage in a scratch directory. `otlpReceiver` also accepts OTLP/HTTP metrics at
 * `<url>/api/v1/otlp/v1/metrics`.
 */
export async function startPrometheus(targets: Record<string, string>, options: { otlpReceiver?: boolean } = {}): Promise<Prometheus> {
  const file = binary('prometheus', 'PROMETHEUS_PATH');
  const { url, started } = await startOnFreePorts(async () => {
    const port = await freePort();
    const dir = await mkdtemp(path.join(tmpdir(), 'skein-prometheus-'));
    const jobs = Object.entries(targets)
      .map(([job, url]) => {
        const u = new URL(url);
        return `  - job_name: ${job}\n    metrics_path: ${u.pathname}\n    static_configs:\n      - targets: ['${u.host}']\n`;
      })
      .join('');
    await writeFile(path.join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n${jobs || '  []\n'}`);
    const started = await run(
      file,
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
        '--log.level=warn',
        ...(options.otlpReceiver ? ['--web.enable-otlp-receiver'] : []),
      ],
      dir,
    );
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitReady(`${url}/-/ready`, started, 'prometheus');
    } catch (err) {
      await started.stop();
      throw err;
    }
    return { url, started };
  });
  return {
    url,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await res.json()) as {
        status: string;
        error?: string;
        data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
      };
      if (body.status !== 'success') throw new Error(`PromQL ${promql} failed: ${body.error}`);
      return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    async targets() {
      const body = (await (await fetch(`${url}/api/v1/targets`)).json()) as {
        data: { activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }> };
      };
      return body.data.activeTargets.map((t) => ({ job: t.labels.job, health: t.health, lastError: t.lastError }));
    },
    stop: () => started.stop(),
  };
}
