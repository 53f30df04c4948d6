/**
 * Validator benchmark (ISSUE 9 point 7): a full `validate()` of a generated workflow package of 1,000 workflow
 * folders (workflow, steps, evaluators and a helper module each: 4,002 files), written once in JavaScript and once
 * in TypeScript (`.ts` sources with `.js`-suffixed imports and type annotations), plus the worker's startup
 * validation of the `examples` project.
 *
 *   npm run build && node bench/validate/run.mjs [--runs 5] [--workflows 1000]
 *
 * The packages are generated under bench/.generated/ (gitignored). Each run is a fresh Node process (cold module
 * cache and JIT; the OS file cache is warm after generation) that validates once, as `validate-workflow-package`
 * and the worker do. Prints, as medians over the runs, the CPU seconds of that full validation (module loading
 * excluded) and the process's peak RSS, against the targets (≤ 1.0 CPU-s, ≤ 150 MB), the TypeScript variant's
 * ratio to the JavaScript figure in the same run (target ≤ 1.3), and wall times for reference (on a shared machine
 * CPU time is the steadier figure).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const generated = join(repo, 'bench', '.generated');
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

/**
 * Writes `<workflows>` folders × 4 files; `pkg`: an exposed package with an entry re-exporting every workflow,
 * else a project; `ts`: `.ts` sources with type annotations and `.js`-suffixed imports.
 * @returns the directory and its number of files
 */
function generate(workflows, { ts = false, pkg = true } = {}) {
  const dir = join(generated, `validate-${ts ? 'ts' : 'js'}-${pkg ? 'package' : 'project'}`);
  const ext = ts ? 'ts' : 'js';
  const t = (annotation) => (ts ? annotation : '');
  rmSync(dir, { recursive: true, force: true });
  const write = (rel, text) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel.replace(/\.js$/, `.${ext}`)), text);
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
  fn: async (input${t(': { id: string; retries?: number }')}) => {
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
  fn: async ({ id }${t(': { id: string }')}) => ({ id, body: (await readFile('/dev/null', 'utf8')) + id }),
});

export const storeItem = step({
  name: 'storeItem',
  fn: async ({ item, note }${t(': { item: { id: string }; note: string }')}) => ({ ok: true, id: item.id, note }),
});
`,
    );
    write(
      `${name}/evaluators.js`,
      `import { evaluator } from '@skein/core';

export const judgeItem = evaluator({
  name: 'judgeItem',
  fn: async (item${t(': { body: string }')}) => ({ value: item.body.length > 3 ? 1 : 0, confidence: 0.9, reasoning: 'length' }),
});
`,
    );
    write(
      `${name}/lib.js`,
      `/** Pure helpers the workflow imports (workflow code, checked for SPEC rule 12). */
export function normalize(id${t(': unknown')})${t(': string')} {
  return String(id).trim().toLowerCase();
}

export function summarize(item${t(': { id: string; body: string }')}) {
  const words = item.body.split(/\\s+/).filter(Boolean);
  return { id: item.id, words: words.length, first: words[0] ?? null };
}
`,
    );
    files += 4;
  }
  if (pkg) write('index.js', entry.join('\n') + '\n');
  const manifest = pkg
    ? { name: 'bench-validate-package', version: '1.0.0', private: true, type: 'module', exports: { '.': './index.js' }, skein: { workflows: { expose: true } }, peerDependencies: { '@skein/core': '0.1.0', zod: '^4.0.0' } }
    : { name: 'bench-validate-project', version: '1.0.0', private: true, type: 'module', dependencies: { '@skein/core': '0.1.0' } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  return { dir, files: files + (pkg ? 2 : 1) };
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
  const workflows = arg('workflows', 1000);
  const fmt = (ms) => (ms / 1000).toFixed(2);
  /** Median CPU seconds and peak RSS of one full cold validation per fresh process. */
  const measureTree = (label, tree) => {
    const results = Array.from({ length: runs }, () => child(tree.dir, 0));
    const first = results[0];
    const cpu = median(results.map((r) => r.coldCpuMs));
    const rss = median(results.map((r) => r.peakRssMb));
    console.log(
      `${label}: ${tree.files} files, ${first.workflows} workflows, ${first.errors} errors, ${first.filesChecked} files checked (each read and parsed once); ` +
        `CPU ${fmt(cpu)} s, peak RSS ${rss.toFixed(0)} MB, wall ${fmt(median(results.map((r) => r.coldMs)))} s (medians of ${runs} fresh processes)`,
    );
    return { cpu, rss };
  };
  const pkg = measureTree(`JavaScript package (${workflows} workflows)`, generate(workflows, { pkg: true }));
  console.log(`  target: full validation ≤ 1.00 CPU-s → ${pkg.cpu / 1000 <= 1 ? 'met' : 'NOT met'} (${fmt(pkg.cpu)} s); peak RSS ≤ 150 MB → ${pkg.rss <= 150 ? 'met' : 'NOT met'} (${pkg.rss.toFixed(0)} MB)`);
  // The two variants run interleaved (JS, TS, JS, TS, ...) so both see the same machine load; the ratio is of medians.
  const jsTree = generate(workflows, { pkg: false });
  const tsTree = generate(workflows, { pkg: false, ts: true });
  const pairs = Array.from({ length: runs }, () => [child(jsTree.dir, 0), child(tsTree.dir, 0)]);
  const summary = (label, tree, results) => {
    const cpu = median(results.map((r) => r.coldCpuMs));
    console.log(`${label}: ${tree.files} files, ${results[0].workflows} workflows, ${results[0].errors} errors; CPU ${fmt(cpu)} s, peak RSS ${median(results.map((r) => r.peakRssMb)).toFixed(0)} MB (medians of ${runs}, interleaved)`);
    return { cpu };
  };
  const js = summary(`JavaScript project (${workflows} workflows)`, jsTree, pairs.map((p) => p[0]));
  const ts = summary(`TypeScript project (${workflows} workflows)`, tsTree, pairs.map((p) => p[1]));
  const ratio = ts.cpu / js.cpu;
  const pairRatio = median(pairs.map(([a, b]) => b.coldCpuMs / a.coldCpuMs));
  console.log(`  TypeScript / JavaScript CPU ratio: ${ratio.toFixed(2)} of medians, ${pairRatio.toFixed(2)} median of pairs (target ≤ 1.30 → ${ratio <= 1.3 ? 'met' : 'NOT met'})`);
  console.log(`load average during the run: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} on ${(await import('node:os')).availableParallelism()} cores`);
  const examples = Array.from({ length: runs }, () => child(join(repo, 'examples'), 0));
  const startup = median(examples.map((r) => r.loadMs + r.coldMs));
  console.log(
    `worker startup validation (examples project, fresh process, module load included): median ${startup.toFixed(0)} ms ` +
      `(load ${median(examples.map((r) => r.loadMs)).toFixed(0)} ms + validate ${median(examples.map((r) => r.coldMs)).toFixed(0)} ms, ${examples[0].workflows} workflows, ${examples[0].errors} errors)`,
  );
}
