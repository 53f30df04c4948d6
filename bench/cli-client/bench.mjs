/**
 * bench/cli-client: wall-clock time of one `skein workflow run echo --json` (a new process: start, request,
 * print) against a baseline process that sends the same `POST /workflow/run` with plain fetch and prints the
 * body, interleaved, on the same stack. Also `skein workflow status` alone (mostly process start-up).
 * Prints medians and the ratio skein / baseline. Targets: ratio ≤ 1.5 and `status` median ≤ 400 ms.
 * Usage: npm run build && node bench/cli-client/bench.mjs [iterations=15]
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fmt, percentile, startStack } from '../api-support/stack.mjs';

const N = Number(process.argv[2] ?? 15);
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/cli/dist/bin.js');
const run = promisify(execFile);
const stack = await startStack();
const env = { ...process.env, SKEIN_API_URL: stack.url, SKEIN_API_TOKEN: '' };
const BASELINE = `const r = await fetch(process.argv[1] + '/workflow/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: process.argv[2] });
process.stdout.write(await r.text() + '\\n');`;

async function timed(file, args) {
  const t = performance.now();
  const { stdout } = await run(file, args, { env });
  const ms = performance.now() - t;
  return { ms, stdout };
}

const skeinRun = (i) => timed(process.execPath, [BIN, 'workflow', 'run', 'echo', '--json', '--input', JSON.stringify({ i })]);
const baselineRun = (i) => timed(process.execPath, ['--input-type=module', '-e', BASELINE, stack.url, JSON.stringify({ workflowName: 'echo', input: { i } })]);
const skeinStatus = (id) => timed(process.execPath, [BIN, 'workflow', 'status', id, '--json']);

try {
  const first = JSON.parse((await skeinRun(-1)).stdout);
  await baselineRun(-1);
  const samples = { skein: [], baseline: [], status: [] };
  for (let i = 0; i < N; i++) {
    const a = await skeinRun(i);
    if (JSON.parse(a.stdout).status !== 'completed') throw new Error(`run failed: ${a.stdout}`);
    samples.skein.push(a.ms);
    samples.baseline.push((await baselineRun(i)).ms);
    samples.status.push((await skeinStatus(first.workflowId)).ms);
  }
  const med = (xs) => percentile(xs, 50);
  const ratio = med(samples.skein) / med(samples.baseline);
  console.log(`skein workflow run --json: median ${fmt(med(samples.skein), 0)} ms (p95 ${fmt(percentile(samples.skein, 95), 0)} ms)`);
  console.log(`baseline fetch process:     median ${fmt(med(samples.baseline), 0)} ms (p95 ${fmt(percentile(samples.baseline, 95), 0)} ms)`);
  console.log(`ratio skein / baseline:     ${fmt(ratio, 2)} (target ≤ 1.5) ${ratio <= 1.5 ? 'OK' : 'OVER'}`);
  console.log(`skein workflow status:      median ${fmt(med(samples.status), 0)} ms (target ≤ 400 ms) ${med(samples.status) <= 400 ? 'OK' : 'OVER'}`);
} finally {
  await stack.close();
}
