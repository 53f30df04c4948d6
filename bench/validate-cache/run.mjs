/**
 * `validate-workflow-package --cache` on the 1,000-workflow generated package of bench/validate (4,002 files), each
 * figure the median over `--runs` fresh processes of the command as users run it (Node's start included), with the
 * uncached validation measured in the same run as the baseline:
 * - uncached: `validate-workflow-package <dir>`, CPU seconds of the whole process (user + system, every thread;
 *   target ≤ 0.45 CPU-s) and wall;
 * - cold cache: the first `--cache` run (no cache file): CPU and wall (no target: it records everything);
 * - warm, nothing changed: CPU and wall;
 * - warm, after editing one workflow file inside its function body (a constant changes: the file's facts and
 *   findings do not), the case of an author saving a file: wall of the whole process (target ≤ 0.25 s) and CPU;
 * - warm, after an edit that changes a workflow file's facts (a new export: discovery and the project rules run
 *   again, from the cached facts of the 4,001 other files, which are not parsed): CPU and wall.
 * The machine is shared (2 cores): CPU time is the steadier figure, wall grows with the load; the load average is
 * printed with the figures.
 *
 *   npm run build && node bench/validate-cache/run.mjs [--runs 7] [--workflows 1000]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate } from '../validate/generate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const bin = join(repo, 'packages', 'validator', 'bin', 'validate-workflow-package.js');
const probe = pathToFileURL(join(repo, 'bench', 'validate', 'probe.mjs')).href;
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = arg('runs', 7);
const workflows = arg('workflows', 1000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One run of the command; returns its wall time (spawn to exit, ms), its CPU (ms, from the probe) and its stdout. */
function command(dir, extra) {
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--import', probe, bin, dir, '--format', 'json', ...extra], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - started;
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (r.status === null || r.status > 1 || !line) throw new Error(`validate-workflow-package failed (${r.status}): ${r.stderr}`);
  const warning = r.stderr.split('\n').find((l) => l.includes('warning'));
  if (warning) throw new Error(`unexpected warning: ${warning}`);
  return { wallMs, cpuMs: JSON.parse(line.slice('BENCH '.length)).cpuMs, stdout: r.stdout };
}

const { dir, files } = generate(workflows, { pkg: true, name: 'validate-cache-package' });
const scratch = mkdtempSync(join(os.tmpdir(), 'skein-bench-validate-cache-'));
const cacheFile = join(scratch, 'validate.json');
const cached = ['--cache-location', cacheFile];
const workflowFile = (i) => join(dir, `flow_${String(i).padStart(4, '0')}`, 'workflow.js');
console.log(
  `bench/validate-cache: ${workflows} workflows (${files} files), ${runs} fresh processes per figure, medians; load average at start ${load()} on ${os.availableParallelism()} cores`,
);

const figures = { uncached: [], cold: [], warm: [], bodyEdit: [], factEdit: [] };
const loads = [];
let edits = 0;
try {
  // Interleaved, so every figure sees the same machine load.
  for (let i = 0; i < runs; i++) {
    const baseline = command(dir, []);
    figures.uncached.push(baseline);
    rmSync(cacheFile, { force: true });
    const cold = command(dir, cached);
    figures.cold.push(cold);
    if (cold.stdout !== baseline.stdout) throw new Error('the cold --cache run printed another report than the uncached one');
    figures.warm.push(command(dir, cached));

    // One workflow file edited inside its function body (the stored report stands).
    const body = workflowFile((i * 37) % workflows);
    const text = readFileSync(body, 'utf8');
    writeFileSync(body, text.replace('verdict.value < 0.5', `verdict.value < 0.${++edits % 9 || 1}5`));
    figures.bodyEdit.push(command(dir, cached));
    writeFileSync(body, text);
    command(dir, cached); // back to the original (not measured)

    // One workflow file edited so that its facts change (a new export).
    const fact = workflowFile((i * 53 + 11) % workflows);
    const factText = readFileSync(fact, 'utf8');
    writeFileSync(fact, `${factText}\nexport const benchEdit${i} = ${i};\n`);
    const factRun = command(dir, cached);
    figures.factEdit.push(factRun);
    if (factRun.stdout !== command(dir, []).stdout) throw new Error('the --cache run after an edit printed another report than the uncached one');
    writeFileSync(fact, factText);
    loads.push(os.loadavg()[0]);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const rows = [];
const row = (what, runsOf, target) => {
  const cpu = median(runsOf.map((r) => r.cpuMs)) / 1000;
  const wall = median(runsOf.map((r) => r.wallMs)) / 1000;
  const verdict =
    target === undefined
      ? ''
      : `target ${target.kind === 'cpu' ? `≤ ${target.value} CPU-s` : `≤ ${target.value} s wall`}: ${(target.kind === 'cpu' ? cpu : wall) <= target.value ? 'met' : 'NOT met'}`;
  rows.push([what, `${cpu.toFixed(3)} CPU-s`, `${wall.toFixed(3)} s wall`, verdict]);
};
row('uncached full validation (the baseline)', figures.uncached, { kind: 'cpu', value: 0.45 });
row('--cache, cold (no cache file)', figures.cold);
row('--cache, warm, nothing changed', figures.warm);
row('--cache, after editing one workflow file (inside its function body)', figures.bodyEdit, { kind: 'wall', value: 0.25 });
row('--cache, after a workflow edit that changes its facts (a new export)', figures.factEdit);
const width = Math.max(...rows.map((r) => r[0].length));
console.log('');
for (const [what, cpu, wall, verdict] of rows) console.log(`${what.padEnd(width)}  ${cpu.padStart(13)}  ${wall.padStart(12)}  ${verdict}`);
const ratio = median(figures.bodyEdit.map((r) => r.cpuMs)) / median(figures.uncached.map((r) => r.cpuMs));
console.log(`\nafter one body edit the command costs ${(ratio * 100).toFixed(0)}% of the uncached CPU`);
console.log(`load average (1 min) after each round: ${loads.map((l) => l.toFixed(1)).join(', ')}; at the end ${load()}`);
