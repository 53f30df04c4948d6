/**
 * `skein build` of the 1,000-workflow generated project (bench/support/generated-project.mjs, 200 packages x 5), as
 * in a fresh container: the project's `.skein/` (startup, bundle and webpack caches) deleted before each build.
 * Figures (medians over --runs): wall time from spawn to exit (target ≤ 8 s) and the peak resident memory of the
 * whole process tree, the bundling child process included, sampled every 25 ms from /proc (target ≤ 600 MB);
 * and the build ID, which must be the same in every run.
 *
 * With `--baseline <checkout>`, the `skein` of another checkout (for example the main branch, built) builds the same
 * project in the same rounds, interleaved, so the two are compared side by side.
 *
 *   npm run build && node bench/skein-build/run.mjs [--runs 3] [--baseline /work/main]
 *
 * The machine's load average is printed with the figures: other processes on a shared machine slow every figure.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject } from '../support/generated-project.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 3));
const BASELINE = option('--baseline', undefined);
const project = path.join(repo, 'bench', '.generated', 'skein-build');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Resident set of `pid` and all its descendants, in bytes (0 once gone). */
function treeRss(pid) {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      for (const tid of readdirSync(`/proc/${p}/task`))
        stack.push(...readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** One cold `skein build` with `bin`: wall ms, peak tree RSS, build ID. */
async function build(bin) {
  rmSync(path.join(project, '.skein'), { recursive: true, force: true });
  const base = path.join(tmpdir(), `skein-build-bench-${process.pid}`);
  rmSync(base, { recursive: true, force: true });
  const out = path.join(base, 'build');
  const t0 = performance.now();
  // A new, empty temporary folder, where Node's compile cache lives by default: as in a fresh container. Beside the
  // output folder, not in it: `skein build` writes only into a new, empty or earlier build's folder.
  const tmp = path.join(base, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const { NODE_COMPILE_CACHE: _, ...env } = process.env;
  const child = spawn(process.execPath, [bin, 'build', project, '--out', out], {
    env: { ...env, TMPDIR: tmp, SKEIN_LOG_PRETTY: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(child.pid))), 25);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`skein build exited with ${code}:\n${stderr}`);
  const buildId = /build ID (\S+)/.exec(stdout)?.[1];
  rmSync(base, { recursive: true, force: true });
  return { ms, peak, buildId };
}

generateProject(project);
const kinds = [{ name: 'this checkout', bin: path.join(repo, 'packages/cli/bin/skein.js') }];
if (BASELINE) kinds.push({ name: `baseline (${BASELINE})`, bin: path.resolve(BASELINE, 'packages/cli/bin/skein.js') });
const results = new Map(kinds.map((k) => [k.name, []]));
for (let i = 0; i < RUNS; i++) for (const k of kinds) results.get(k.name).push(await build(k.bin));

console.log(
  `skein build, 1,000-workflow project, cold caches, ${RUNS} runs (median); load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const k of kinds) {
  const rs = results.get(k.name);
  const ids = new Set(rs.map((r) => r.buildId));
  console.log(
    `  ${k.name.padEnd(28)} ${(median(rs.map((r) => r.ms)) / 1000).toFixed(1)} s (target ≤ 8 s), peak ${Math.round(median(rs.map((r) => r.peak)) / 1e6)} MB (target ≤ 600 MB), ` +
      `build ID ${[...ids].join(', ')}${ids.size > 1 ? ' (NOT STABLE)' : ''}`,
  );
}
if (BASELINE) {
  const [a, b] = kinds.map((k) => results.get(k.name)[0].buildId);
  console.log(`  same build ID as the baseline: ${a === b ? 'yes' : 'NO'}`);
}
