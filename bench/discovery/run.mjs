/**
 * Discovery benchmark: cold `discover()` over a generated project with 200 exposed packages × 5 workflows
 * (each workflow with steps and evaluators; each package with shared steps and evaluators).
 *
 *   cd /work/main && npx tsc -b packages/discovery && node bench/discovery/run.mjs [--runs 7] [--packages 200]
 *
 * The project is generated under bench/.generated/discovery (gitignored). Each run is a fresh Node process
 * (cold module cache and JIT; the OS file cache is warm after generation). Prints the median total ms,
 * files/s, and peak RSS / heap over the runs, plus CPU time (less sensitive to other load on a shared machine).
 * Target: under 1 s for the 1,000 workflows.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateProject } from '../support/generated-project.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '..', '.generated', 'discovery');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

if (args.includes('--once')) {
  // One cold measurement in this process.
  const { discover } = await import('@skein/discovery');
  let peakHeap = 0;
  const timer = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const m = await discover(outDir, { ceiling: outDir });
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(timer);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  const errors = m.diagnostics.filter((d) => d.severity === 'error').length;
  process.stdout.write(
    JSON.stringify({
      ms,
      cpuMs,
      filesRead: m.filesRead,
      workflows: m.workflows.length,
      packages: m.packages.length,
      diagnostics: m.diagnostics.length,
      errors,
      peakRssKb: process.resourceUsage().maxRSS,
      peakHeap,
    }),
  );
  process.exit(0);
}

const PACKAGES = arg('packages', 200);
const WORKFLOWS = 5;
const RUNS = arg('runs', 7);

const t0 = performance.now();
generateProject(outDir, { packages: PACKAGES, workflows: WORKFLOWS });
console.log(`generated ${PACKAGES} packages x ${WORKFLOWS} workflows in ${(performance.now() - t0).toFixed(0)} ms under ${outDir}`);

const results = [];
for (let i = 0; i < RUNS; i++) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--once'], { encoding: 'utf8' });
  if (child.status !== 0) {
    console.error(child.stderr);
    process.exit(1);
  }
  results.push(JSON.parse(child.stdout));
}
const sorted = [...results].sort((a, b) => a.ms - b.ms);
const median = sorted[Math.floor(sorted.length / 2)];
const r = results[0];
console.log(`workflows: ${r.workflows}, packages: ${r.packages}, files read: ${r.filesRead}, diagnostics: ${r.diagnostics} (${r.errors} errors)`);
console.log(`runs (ms): ${results.map((x) => x.ms.toFixed(0)).join(', ')}`);
const cpuSorted = results.map((x) => x.cpuMs).sort((a, b) => a - b);
console.log(
  `median total: ${median.ms.toFixed(0)} ms wall (min ${sorted[0].ms.toFixed(0)} ms); median CPU (user+system): ${cpuSorted[Math.floor(cpuSorted.length / 2)].toFixed(0)} ms`,
);
console.log(
  `load average at the end: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${(await import('node:os')).availableParallelism()} cores`,
);
console.log(`files/s: ${Math.round(median.filesRead / (median.ms / 1000))}`);
console.log(
  `peak RSS: ${(Math.max(...results.map((x) => x.peakRssKb)) / 1024).toFixed(0)} MiB, peak heap: ${(Math.max(...results.map((x) => x.peakHeap)) / 1048576).toFixed(0)} MiB`,
);
console.log(median.ms < 1000 ? 'target met: under 1 s' : 'target missed: 1 s or more');
