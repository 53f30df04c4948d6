/**
 * bench/observability: what tracing and metrics cost, each side in a process of its own, interleaved, one run.
 * 1. `POST /workflow/run` of a one-step workflow (`echo`) with tracing on, exporting to a real Jaeger (OTLP/HTTP),
 *    against tracing off: p50 and p95, interleaved pairs. Target: p50 ratio ≤ 1.10.
 * 2. Worker throughput of a 3-step workflow (10 in flight, started and awaited with @temporalio/client) with
 *    metrics on (Prometheus endpoint, scraped every second as Prometheus would) against metrics off, in
 *    alternating rounds. Target: ratio ≥ 0.97.
 *
 *   npm run build && node bench/observability/run.mjs [--pairs 200] [--runs 300]
 *
 * Needs the Jaeger binary (`npm run services:install jaeger`) and a temporal binary (TEMPORAL_CLI_PATH or cache).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { startJaeger } from '../../test/support/backends.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PAIRS = arg('pairs', 200);
const RUNS = arg('runs', 300);
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

function serve(env) {
  const child = spawn(process.execPath, [path.join(here, 'serve.mjs')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /READY (\S+) (\S+)/.exec(buf);
      if (m) resolve({ url: m[1], metrics: m[2], stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
}

const temporal = await locateTemporal();
const server = await startDevServer({ binary: temporal.path, onOutput: () => {} });
const jaeger = await startJaeger();
const connection = await Connection.connect({ address: server.address });
const client = new Client({ connection });
const base = {
  TEMPORAL_ADDRESS: server.address,
  OTEL_EXPORTER_OTLP_ENDPOINT: '',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
  SKEIN_METRICS_PORT: '',
  SKEIN_METRICS_OTLP: '',
};
const procs = [];
try {
  // 1. Tracing.
  const apiSuite = path.resolve(here, '../../fixtures/projects/api-suite');
  const [off, on] = await Promise.all([
    serve({ ...base, BENCH_PROJECT: apiSuite, BENCH_API: '1', SKEIN_CATALOG: 'obs-off' }),
    serve({ ...base, BENCH_PROJECT: apiSuite, BENCH_API: '1', SKEIN_CATALOG: 'obs-on', OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttp }),
  ]);
  procs.push(off, on);
  const run = async (url) => {
    const t = performance.now();
    const res = await fetch(`${url}/workflow/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflowName: 'echo', input: { x: 1 } }),
    });
    const body = await res.json();
    if (body.status !== 'completed') throw new Error(`run failed: ${JSON.stringify(body)}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await Promise.all([run(off.url), run(on.url)]).catch(() => {});
  const times = { off: [], on: [] };
  for (let i = 0; i < PAIRS; i++) {
    for (const side of i % 2 ? ['on', 'off'] : ['off', 'on']) times[side].push(await run(side === 'on' ? on.url : off.url));
  }
  const traced = await fetch(`${jaeger.query}/api/services`).then((r) => r.json());
  console.log(`tracing: ${PAIRS} interleaved pairs of POST /workflow/run (one-step workflow); Jaeger holds services ${JSON.stringify(traced.data)}`);
  for (const side of ['off', 'on'])
    console.log(`  tracing ${side.padEnd(3)}  p50 ${percentile(times[side], 50).toFixed(1)} ms  p95 ${percentile(times[side], 95).toFixed(1)} ms`);
  console.log(
    `  ratio on/off  p50 ${(percentile(times.on, 50) / percentile(times.off, 50)).toFixed(3)}  p95 ${(percentile(times.on, 95) / percentile(times.off, 95)).toFixed(3)}  (target p50 ≤ 1.10)`,
  );
  await Promise.all([off.stop(), on.stop()]);
  procs.length = 0;

  // 2. Worker metrics.
  const three = path.resolve(here, '../worker-throughput/project');
  const [plain, metered] = await Promise.all([
    serve({ ...base, BENCH_PROJECT: three, SKEIN_CATALOG: 'obs-plain' }),
    serve({ ...base, BENCH_PROJECT: three, SKEIN_CATALOG: 'obs-metered', SKEIN_METRICS_PORT: '0' }),
  ]);
  procs.push(plain, metered);
  // Scraped every second, as Prometheus would.
  const scraper = setInterval(
    () =>
      void fetch(metered.metrics)
        .then((r) => r.text())
        .catch(() => {}),
    1000,
  );
  const throughput = async (catalog, total, inFlight = 10) => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < total) {
          next++;
          const out = await client.workflow.execute('three', { taskQueue: catalog, workflowId: randomUUID(), args: [1] });
          if (out !== 1) throw new Error(`unexpected output ${out}`);
        }
      }),
    );
    return total / ((performance.now() - t0) / 1000);
  };
  await throughput('obs-plain', 20);
  await throughput('obs-metered', 20);
  const rates = { plain: [], metered: [] };
  const rounds = 6;
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? ['metered', 'plain'] : ['plain', 'metered'])
      rates[side].push(await throughput(side === 'plain' ? 'obs-plain' : 'obs-metered', Math.round(RUNS / rounds)));
  }
  clearInterval(scraper);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(`worker metrics: 3-step workflow, 10 in flight, ${rounds} alternating rounds of ${Math.round(RUNS / rounds)} runs`);
  console.log(`  metrics off  ${mean(rates.plain).toFixed(1)} runs/s   (rounds: ${rates.plain.map((x) => x.toFixed(1)).join(', ')})`);
  console.log(`  metrics on   ${mean(rates.metered).toFixed(1)} runs/s   (rounds: ${rates.metered.map((x) => x.toFixed(1)).join(', ')})`);
  console.log(`  ratio on/off ${(mean(rates.metered) / mean(rates.plain)).toFixed(3)}  (target ≥ 0.97)`);
} finally {
  await Promise.all(procs.map((p) => p.stop()));
  await connection.close();
  await jaeger.stop();
  await server.stop();
}
