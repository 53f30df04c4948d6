/**
 * Validator benchmark: `validate()` over a generated workflow package of 500 workflow folders
 * (workflow.js, steps.js, evaluators.js and a helper module each: 2,000 files), plus the worker's startup
 * validation of the `examples` project.
 *
 *   cd /work/main && npx tsc -b packages/validator && node bench/validate/run.mjs [--runs 5] [--workflows 500]
 *
 * The package is generated under bench/.generated/validate (gitignored). Each run is a fresh Node process
 * (cold module cache and JIT; the OS file cache is warm after generation) that validates once cold and
 * then three times warm. Prints median cold and warm files/s, peak RSS and heap, and the cold time of
 * `validate('examples')` as the worker runs it at startup (module loading included). CPU time is printed
 * next to wall time: on a shared machine it is the steadier figure.
 * Target: at least 2,000 files/s.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const outDir = join(repo, 'bench', '.generated', 'validate');
const dist = pathToFileURL(join(repo, 'packages', 'validator', 'dist', 'index.js')).href;
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

/** One measurement in this process; prints a JSON line. */
async function measure(dir, warmRuns) {
  const started = performance.now();
  const { validate } = await import(dist);
  const loadMs = performance.now() - started;
  let peakHeap = 0;
  const timer = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
  const times = [];
  const cpu = [];
  let report;
  for (let i = 0; i <= warmRuns; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    report = await validate(dir);
    const used = process.cpuUsage(c);
    times.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
  }
  clearInterval(timer);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  process.stdout.write(
    JSON.stringify({
      loadMs,
      coldMs: times[0],
      warmMs: times.slice(1),
      coldCpuMs: cpu[0],
      warmCpuMs: cpu.slice(1),
      workflows: report.manifest.workflows.length,
      diagnostics: report.diagnostics.length,
      errors: report.errorCount,
      filesChecked: report.filesChecked,
      discoveryFilesRead: report.manifest.filesRead,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      peakHeapMb: peakHeap / 1024 / 1024,
    }) + '\n',
  );
}

/** Writes the package: 500 folders × 4 files, an entry re-exporting every workflow, package.json. */
function generate(workflows) {
  rmSync(outDir, { recursive: true, force: true });
  const write = (rel, text) => {
    mkdirSync(dirname(join(outDir, rel)), { recursive: true });
    writeFileSync(join(outDir, rel), text);
  };
  const entry = [];
  let files = 0;
  for (let i = 0; i < workflows; i++) {
    const name = `flow_${String(i).padStart(4, '0')}`;
    entry.push(`export { default as ${name} } from './${name}/workflow.js';`);
    write(
      `${name}/workflow.js`,
      `import { workflow, z } from '@skein/core';
import { fetchItem, storeItem } from './steps.js';
import { judgeItem } from './evaluators.js';
import { normalize, summarize } from './lib.js';

/** Generated workflow ${i}. */
export default workflow({
  name: '${name}',
  aliases: ['${name}_v1'],
  inputSchema: z.object({ id: z.string(), retries: z.number().optional() }),
  fn: async (input) => {
    const item = await fetchItem({ id: normalize(input.id) });
    const verdict = await judgeItem(item);
    if (verdict.value < 0.5) return { stored: false, summary: summarize(item) };
    await storeItem({ item, note: \`accepted with \${verdict.confidence ?? 0}\` });
    return { stored: true, summary: summarize(item) };
  },
});
`,
    );
    write(
      `${name}/steps.js`,
      `import { step } from '@skein/core';
import { readFile } from 'node:fs/promises';

export const fetchItem = step({
  name: 'fetchItem',
  fn: async ({ id }) => ({ id, body: (await readFile('/dev/null', 'utf8')) + id }),
});

export const storeItem = step({
  name: 'storeItem',
  fn: async ({ item, note }) => ({ ok: true, id: item.id, note }),
});
`,
    );
    write(
      `${name}/evaluators.js`,
      `import { evaluator } from '@skein/core';

export const judgeItem = evaluator({
  name: 'judgeItem',
  fn: async (item) => ({ value: item.body.length > 3 ? 1 : 0, confidence: 0.9, reasoning: 'length' }),
});
`,
    );
    write(
      `${name}/lib.js`,
      `/** Pure helpers the workflow imports (workflow code, checked for SPEC rule 12). */
export function normalize(id) {
  return String(id).trim().toLowerCase();
}

export function summarize(item) {
  const words = item.body.split(/\\s+/).filter(Boolean);
  return { id: item.id, words: words.length, first: words[0] ?? null };
}
`,
    );
    files += 4;
  }
  write('index.js', entry.join('\n') + '\n');
  write(
    'package.json',
    JSON.stringify(
      {
        name: 'bench-validate-package',
        version: '1.0.0',
        private: true,
        type: 'module',
        exports: { '.': './index.js' },
        skein: { workflows: { expose: true } },
        peerDependencies: { '@skein/core': '0.1.0', zod: '^4.0.0' },
      },
      null,
      2,
    ),
  );
  return files + 2;
}

function child(dir, warm) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--measure', dir, '--warm', String(warm)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`measurement failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

if (args.includes('--measure')) {
  await measure(args[args.indexOf('--measure') + 1], arg('warm', 3));
} else {
  const runs = arg('runs', 5);
  const workflows = arg('workflows', 500);
  const files = generate(workflows);
  const results = Array.from({ length: runs }, () => child(outDir, 3));
  const cold = median(results.map((r) => r.coldMs));
  const warm = median(results.flatMap((r) => r.warmMs));
  const first = results[0];
  console.log(`package: ${workflows} workflow folders, ${files} files (${first.workflows} workflows registered, ${first.diagnostics} findings: ${first.errors} errors)`);
  console.log(`files parsed by the validator: ${first.filesChecked} (own files and workflow-code dependencies); by discovery: ${first.discoveryFilesRead}`);
  const coldCpu = median(results.map((r) => r.coldCpuMs));
  const warmCpu = median(results.flatMap((r) => r.warmCpuMs));
  console.log(`cold validate(): median ${cold.toFixed(0)} ms wall over ${runs} fresh processes → ${Math.round(files / (cold / 1000))} files/s (CPU ${coldCpu.toFixed(0)} ms → ${Math.round(files / (coldCpu / 1000))} files per CPU-second)`);
  console.log(`warm validate(): median ${warm.toFixed(0)} ms wall → ${Math.round(files / (warm / 1000))} files/s (CPU ${warmCpu.toFixed(0)} ms → ${Math.round(files / (warmCpu / 1000))} files per CPU-second)`);
  console.log(`load average during the run: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} on ${(await import('node:os')).availableParallelism()} cores`);
  console.log(`module load: median ${median(results.map((r) => r.loadMs)).toFixed(0)} ms`);
  console.log(`peak RSS: ${Math.max(...results.map((r) => r.peakRssMb)).toFixed(0)} MB, peak heap: ${Math.max(...results.map((r) => r.peakHeapMb)).toFixed(0)} MB`);
  const examples = Array.from({ length: runs }, () => child(join(repo, 'examples'), 0));
  const startup = median(examples.map((r) => r.loadMs + r.coldMs));
  console.log(
    `worker startup validation (examples project, fresh process, module load included): median ${startup.toFixed(0)} ms ` +
      `(load ${median(examples.map((r) => r.loadMs)).toFixed(0)} ms + validate ${median(examples.map((r) => r.coldMs)).toFixed(0)} ms, ${examples[0].workflows} workflows, ${examples[0].errors} errors)`,
  );
}
