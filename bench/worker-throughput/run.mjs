/**
 * Worker benchmark, against a real Temporal dev server started here (in memory, loopback):
 * 1. throughput of a 3-step workflow (`project/three`) with 1, 10 and 100 executions in flight: runs/s and
 *    latency (median, p95) per run, started and awaited with @temporalio/client, against the same workflow
 *    on a plain @temporalio/worker (`baseline/`), the two interleaved in rounds, printed with their ratio;
 * 2. worker startup time on the 1,000-workflow project of the discovery benchmark, split into validation,
 *    module loading, bundling and engine registration.
 *
 *   npm run build && node bench/worker-throughput/run.mjs [--runs-per-slot 6] [--skip-startup]
 *
 * The worker and the client share this process and the machine's 2 cores, like a small single-box deployment.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { startWorker } from '@skein/worker';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const perSlot = arg('runs-per-slot', 6);
const logger = pino({ level: 'silent' });
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const temporal = await locateTemporal();
const server = await startDevServer({ binary: temporal.path });
const connection = await Connection.connect({ address: server.address });
const client = new Client({ connection });

try {
  const worker = await startWorker({
    projectDir: path.join(here, 'project'),
    catalog: 'bench-three',
    engine: { address: server.address },
    logger,
    traceDir: false,
  });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const baseline = await Worker.create({
    connection: nativeConnection,
    taskQueue: 'bench-base',
    workflowsPath: path.join(here, 'baseline', 'workflows.js'),
    activities: { one: async (n) => n + 1, two: async (n) => n * 2, three: async (n) => n - 3 },
  });
  const baselineRun = baseline.run();
  let seq = 0;
  const runOne = (type, taskQueue) => async () => {
    const t0 = performance.now();
    const out = await client.workflow.execute(type, { taskQueue, workflowId: `${type}-${seq++}`, args: [1] });
    if (out !== 1) throw new Error(`unexpected output ${out}`);
    return performance.now() - t0;
  };
  const targets = { skein: runOne('three', 'bench-three'), baseline: runOne('threeBaseline', 'bench-base') };
  await Promise.all(Array.from({ length: 20 }, targets.skein));
  await Promise.all(Array.from({ length: 20 }, targets.baseline));
  const measure = async (run, inFlight, total) => {
    const latencies = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < total) {
          next++;
          latencies.push(await run());
        }
      }),
    );
    return { seconds: (performance.now() - t0) / 1000, latencies };
  };
  console.log('3-step workflow, runs/s (latency median / p95 ms), Skein vs plain Temporal worker, interleaved:');
  for (const inFlight of [1, 10, 100]) {
    const total = Math.max(30, inFlight * perSlot);
    const acc = { skein: { seconds: 0, latencies: [], runs: 0 }, baseline: { seconds: 0, latencies: [], runs: 0 } };
    for (let round = 0; round < 2; round++) {
      for (const name of round % 2 ? ['baseline', 'skein'] : ['skein', 'baseline']) {
        const r = await measure(targets[name], inFlight, total / 2);
        acc[name].seconds += r.seconds;
        acc[name].latencies.push(...r.latencies);
        acc[name].runs += r.latencies.length;
      }
    }
    const line = (name) => {
      const a = acc[name];
      a.latencies.sort((x, y) => x - y);
      return `${(a.runs / a.seconds).toFixed(1)} runs/s (${quantile(a.latencies, 0.5).toFixed(0)} / ${quantile(a.latencies, 0.95).toFixed(0)})`;
    };
    const ratio = acc.skein.runs / acc.skein.seconds / (acc.baseline.runs / acc.baseline.seconds);
    console.log(`  ${String(inFlight).padStart(3)} in flight: skein ${line('skein')}, baseline ${line('baseline')}; throughput ratio ${ratio.toFixed(2)}`);
  }
  baseline.shutdown();
  await baselineRun;
  await nativeConnection.close();
  await worker.shutdown();

  if (!args.includes('--skip-startup')) {
    const generated = path.join(here, '..', '.generated', 'discovery');
    if (!existsSync(path.join(generated, 'package.json'))) {
      spawnSync(process.execPath, [path.join(here, '..', 'discovery', 'run.mjs'), '--runs', '1'], { stdio: 'ignore' });
    }
    const big = await startWorker({ projectDir: generated, catalog: 'bench-startup', engine: { address: server.address }, logger, traceDir: false });
    const s = big.startup;
    console.log(
      `worker startup, ${big.catalogDocument.workflows.length} workflows: ${s.totalMs} ms (validate ${s.validateMs}, load ${s.loadMs}, bundle ${s.bundleMs}, connect+register ${s.connectMs}); RSS ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB`,
    );
    await big.shutdown();
  }
} finally {
  await connection.close();
  await server.stop();
}
