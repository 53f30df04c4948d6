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
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
    JSON.stringify({ ms, cpuMs, filesRead: m.filesRead, workflows: m.workflows.length, packages: m.packages.length, diagnostics: m.diagnostics.length, errors, peakRssKb: process.resourceUsage().maxRSS, peakHeap }),
  );
  process.exit(0);
}

const PACKAGES = arg('packages', 200);
const WORKFLOWS = 5;
const RUNS = arg('runs', 7);

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function generate() {
  rmSync(outDir, { recursive: true, force: true });
  write(join(outDir, 'package.json'), JSON.stringify({ name: 'bench-project', version: '1.0.0', type: 'module', private: true }));
  write(join(outDir, 'local', 'workflow.js'), `import { workflow } from '@skein/core';\nimport { wf_0_0 } from '@bench/pkg-0';\nexport default workflow({ name: 'local_main', fn: async (i) => wf_0_0(i) });\n`);
  write(join(outDir, 'shared', 'steps', 'audit.js'), `import { step } from '@skein/core';\nexport const audit = step({ name: 'audit', fn: async (x) => x });\n`);
  for (let p = 0; p < PACKAGES; p++) {
    const root = join(outDir, 'node_modules', '@bench', `pkg-${p}`);
    write(
      join(root, 'package.json'),
      JSON.stringify({ name: `@bench/pkg-${p}`, version: '1.0.0', type: 'module', exports: { '.': { 'skein-workflow-bundle': './index.js', import: './index.js' } }, skein: { workflows: { expose: true } }, peerDependencies: { '@skein/core': '0.1.0', zod: '^4.6.7' } }, null, 2),
    );
    const index = [];
    for (let w = 0; w < WORKFLOWS; w++) {
      const name = `wf_${p}_${w}`;
      const dir = join(root, 'workflows', name);
      // Alternate the two supported forms: a direct re-export, and export * through a barrel.
      if (w % 2 === 0) index.push(`export { default as ${name} } from './workflows/${name}/workflow.js';`);
      else index.push(`export * from './workflows/${name}/index.js';`);
      write(join(dir, 'index.js'), `export { default as ${name} } from './workflow.js';\n`);
      write(
        join(dir, 'workflow.js'),
        `import { workflow, z } from '@skein/core';\nimport { fetch_${w}, parse_${w} } from './steps.js';\nimport { judge_${w} } from './evaluators/judge.js';\nimport { quality_${w} } from './evaluators/quality.js';\n\nconst NAME = '${name}';\n\nexport default workflow({\n  name: NAME,\n  aliases: ['${name}_alias'],\n  description: 'Benchmark workflow ${name}.',\n  inputSchema: z.object({ url: z.string() }),\n  outputSchema: z.object({ ok: z.boolean() }),\n  fn: async (input) => {\n    const page = await fetch_${w}(input.url);\n    const parsed = await parse_${w}(page);\n    const verdict = await judge_${w}(parsed);\n    const q = await quality_${w}(parsed);\n    return { ok: verdict.value && q.value > 0.5 };\n  },\n});\n`,
      );
      write(
        join(dir, 'steps.js'),
        `import { step, z } from '@skein/core';\n\nexport const fetch_${w} = step({\n  name: 'fetch_${w}',\n  inputSchema: z.string(),\n  fn: async (url) => {\n    const res = await fetch(url);\n    return res.text();\n  },\n});\n\nexport const parse_${w} = step({\n  name: 'parse_${w}',\n  fn: async (text) => ({ length: text.length, words: text.split(/\\s+/).length }),\n});\n`,
      );
      write(join(dir, 'evaluators', 'judge.js'), `import { evaluator } from '@skein/core';\n\nexport const judge_${w} = evaluator({\n  name: 'judge_${w}',\n  fn: async (parsed) => ({ value: parsed.words > 10, confidence: 0.9, reasoning: 'word count' }),\n});\n`);
      write(join(dir, 'evaluators', 'quality.js'), `import { evaluator } from '@skein/core';\n\nexport const quality_${w} = evaluator({\n  name: 'quality_${w}',\n  fn: async (parsed) => ({ value: Math.min(1, parsed.length / 1000) }),\n});\n`);
    }
    write(join(root, 'index.js'), `${index.join('\n')}\n`);
    write(join(root, 'shared', 'steps', 'notify.js'), `import { step } from '@skein/core';\n\nexport const notify_p${p} = step({ name: 'notify_p${p}', fn: async (msg) => msg });\n`);
    write(join(root, 'shared', 'evaluators', 'safety.js'), `import { evaluator } from '@skein/core';\n\nexport const safety_p${p} = evaluator({ name: 'safety_p${p}', fn: async () => ({ value: true }) });\n`);
  }
}

const t0 = performance.now();
generate();
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
console.log(`median total: ${median.ms.toFixed(0)} ms wall (min ${sorted[0].ms.toFixed(0)} ms); median CPU (user+system): ${cpuSorted[Math.floor(cpuSorted.length / 2)].toFixed(0)} ms`);
console.log(`load average at the end: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')} on ${(await import('node:os')).availableParallelism()} cores`);
console.log(`files/s: ${Math.round(median.filesRead / (median.ms / 1000))}`);
console.log(`peak RSS: ${(Math.max(...results.map((x) => x.peakRssKb)) / 1024).toFixed(0)} MiB, peak heap: ${(Math.max(...results.map((x) => x.peakHeap)) / 1048576).toFixed(0)} MiB`);
console.log(median.ms < 1000 ? 'target met: under 1 s' : 'target missed: 1 s or more');
