/**
 * bench/trace-overhead: what the S3 trace destination costs a run. Two workers serve the same one-step workflow
 * (`echo`, fixtures/projects/api-suite) on two catalogs of one dev server, both with local traces; one also uploads
 * every trace to a real SeaweedFS (`weed mini`, installed by `npm run services:install weed`). `POST /workflow/run` latency is
 * measured against each in interleaved pairs (alternating which goes first).
 * Prints p50/p95 of both and the ratio remote on / off. Target: p50 ≤ 1.05.
 * Usage: npm run build && node bench/trace-overhead/bench.mjs [pairs=200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import diagnostics_channel from 'node:diagnostics_channel';
import { pino } from 'pino';
import { startWorker, TRACE_EXPORT_CHANNEL } from '@skein/worker';
import { createApiServer, loadApiConfig } from '@skein/api';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { fmt, percentile, PROJECT_DIR } from '../api-support/stack.mjs';
import { startSeaweedFs } from '../../test/support/seaweedfs.ts';

const N = Number(process.argv[2] ?? 200);
const WARMUP = 20;
const logger = pino({ level: 'silent' });
const work = mkdtempSync(path.join(tmpdir(), 'skein-bench-trace-'));
const weed = await startSeaweedFs('bench-traces');
let devServer;
let address = process.env.TEMPORAL_ADDRESS;
if (!address) {
  devServer = await startDevServer({ binary: (await locateTemporal({ install: true })).path, onOutput: () => {} });
  address = devServer.address;
}
const stamp = Date.now();
const start = (catalog, remote) => {
  // The S3 settings are read when the worker starts; AWS credentials stay set for both.
  Object.assign(process.env, weed.env);
  if (!remote) delete process.env.SKEIN_TRACE_S3_BUCKET;
  return startWorker({
    projectDir: PROJECT_DIR,
    catalog,
    engine: { address, namespace: 'default' },
    logger,
    traceDir: path.join(work, catalog, 'traces'),
    traceSpoolDir: path.join(work, catalog, 'spool'),
  });
};
const on = await start(`bench-on-${stamp}`, true);
const off = await start(`bench-off-${stamp}`, false);
const api = await createApiServer(loadApiConfig({ PORT: '0', TEMPORAL_ADDRESS: address }), { logger });
const { url } = await api.listen();
const uploads = { ok: 0, failed: 0 };
diagnostics_channel.subscribe(TRACE_EXPORT_CHANNEL, (o) => {
  if (o.destination === 'remote') uploads[o.ok ? 'ok' : 'failed']++;
});

async function run(catalog, i) {
  const t = performance.now();
  const res = await fetch(`${url}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflowName: 'echo', catalog, input: { i } }),
  });
  const body = await res.json();
  const ms = performance.now() - t;
  if (res.status !== 200 || body.status !== 'completed') throw new Error(`run failed: ${res.status} ${JSON.stringify(body)}`);
  return ms;
}

const withRemote = [];
const without = [];
try {
  for (let i = 0; i < WARMUP; i++) {
    await run(on.catalog, i);
    await run(off.catalog, i);
  }
  for (let i = 0; i < N; i++) {
    if (i % 2 === 0) {
      withRemote.push(await run(on.catalog, i));
      without.push(await run(off.catalog, i));
    } else {
      without.push(await run(off.catalog, i));
      withRemote.push(await run(on.catalog, i));
    }
  }
  await new Promise((r) => setTimeout(r, 2000));
  const r50 = percentile(withRemote, 50),
    r95 = percentile(withRemote, 95),
    o50 = percentile(without, 50),
    o95 = percentile(without, 95);
  console.log(`trace-overhead: ${N} interleaved pairs of POST /workflow/run (one-step workflow), local traces on both`);
  console.log(`  S3 destination on       p50 ${fmt(r50)} ms   p95 ${fmt(r95)} ms   (${uploads.ok} uploads ok, ${uploads.failed} failed)`);
  console.log(`  S3 destination off      p50 ${fmt(o50)} ms   p95 ${fmt(o95)} ms`);
  console.log(`  ratio (on / off)        p50 ${fmt(r50 / o50, 3)}   p95 ${fmt(r95 / o95, 3)}   (target p50 ≤ 1.05)`);
} finally {
  await api.close();
  await Promise.all([on.shutdown(), off.shutdown()]);
  await devServer?.stop();
  await weed.close();
  rmSync(work, { recursive: true, force: true });
}
