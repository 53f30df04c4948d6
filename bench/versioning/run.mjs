/**
 * Versioning-check benchmark: what `--baseline` adds to a validation of a generated 1,000-workflow project
 * (workflow, steps, evaluators and a helper module per folder: 4,001 files; every workflow `auto-upgrade`, with a
 * branch, an evaluator and a helper call), against a baseline build of the same project.
 *
 *   npm run build && node bench/versioning/run.mjs [--runs 21] [--workflows 1000] [--changed 20]
 *
 * The project is generated under bench/.generated/ (gitignored). The baseline is a build directory holding what the
 * check reads (`skein-build.json` and `command-shapes.json`, the shapes written by `deriveCommandShapes`, as
 * `skein build` writes them; a full build's bundling is not what is measured). Then `--changed` workflows get a step
 * appended after their last wait (compatible) and as many a step inserted before it (incompatible), so the comparison
 * runs past its fast path of equal shapes for those.
 *
 * Each figure is the median over `--runs` fresh `validate-workflow-package <project> --format json --quiet` processes,
 * with and without `--baseline <build>`, run in pairs so both see the same machine load, the pair's order alternating
 * (without first, then with first), so that neither variant always runs second: the whole process's CPU (every
 * thread, module loading included; `bench/validate/probe.mjs` preloaded) and wall time. Target: the difference
 * ≤ 100 ms, judged on the median of the pairs' differences; their interquartile range is printed beside it. One
 * process's CPU moves by about ±80 ms from run to run on a 2-core machine, more than the difference measured, so the
 * default is 21 pairs (with 7, the median moved by ±70 ms between runs of the same code). Where it goes: the trees
 * kept for the shapes (the store drops them after each file's traversal otherwise: more memory, more GC), the walk of
 * each workflow's fn, reading the baseline's JSON, the comparison.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
const generated = join(repo, 'bench', '.generated');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

/** The generated project: `workflows` folders of four files; `variant(i)` decides workflow i's body. */
function generate(dir, workflows, variant) {
  rmSync(dir, { recursive: true, force: true });
  const write = (rel, text) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  write('package.json', JSON.stringify({ name: 'versioning-bench', private: true, type: 'module', dependencies: { '@skein/core': '0.1.0' } }, null, 2));
  for (let i = 0; i < workflows; i++) {
    const name = `flow_${String(i).padStart(4, '0')}`;
    const v = variant(i);
    const before = v === 'inserted' ? '    await auditItem({ id: input.id });\n' : '';
    const after = v === 'appended' ? '    await auditItem({ id: input.id });\n' : '';
    write(
      `${name}/workflow.js`,
      `import { sleep, workflow, z } from '@skein/core';
import { auditItem, fetchItem, storeItem } from './steps.js';
import { judgeItem } from './evaluators.js';
import { normalize, summarize } from './lib.js';

/** Generated workflow ${i}. */
export default workflow({
  name: '${name}',
  versioningBehavior: 'auto-upgrade',
  inputSchema: z.object({ id: z.string() }),
  fn: async (input) => {
    const item = await fetchItem({ id: normalize(input.id) });
    const verdict = await judgeItem(item);
    if (verdict.value < 0.5) return { stored: false, summary: summarize(item) };
${before}    await sleep('1m');
    await storeItem({ item, note: \`accepted with \${verdict.confidence ?? 0}\` });
${after}    return { stored: true, summary: summarize(item) };
  },
});
`,
    );
    write(
      `${name}/steps.js`,
      `import { step } from '@skein/core';

export const fetchItem = step({ name: 'fetchItem', fn: async ({ id }) => ({ id, body: id }) });
export const storeItem = step({ name: 'storeItem', fn: async ({ item, note }) => ({ ok: true, id: item.id, note }) });
export const auditItem = step({ name: 'auditItem', fn: async ({ id }) => ({ id }) });
`,
    );
    write(
      `${name}/evaluators.js`,
      `import { evaluator } from '@skein/core';

export const judgeItem = evaluator({ name: 'judgeItem', fn: async (item) => ({ value: item.body.length > 3 ? 1 : 0, confidence: 0.9, reasoning: 'length' }) });
`,
    );
    write(
      `${name}/lib.js`,
      `export const normalize = (id) => id.trim().toLowerCase();\nexport const summarize = (item) => \`\${item.id}: \${item.body.length}\`;\n`,
    );
  }
}

/** One `validate-workflow-package` process; the probe reports its CPU and peak RSS. */
function bin(dir, baseline) {
  const probe = pathToFileURL(join(repo, 'bench', 'validate', 'probe.mjs')).href;
  const extra = baseline ? ['--baseline', baseline] : [];
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--import', probe, join(repo, 'packages', 'validator', 'bin', 'validate-workflow-package.js'), dir, '--format', 'json', '--quiet', ...extra],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  const wallMs = performance.now() - started;
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (!line) throw new Error(`validate-workflow-package failed (exit ${r.status}): ${r.stderr.slice(0, 500)}`);
  const report = JSON.parse(r.stdout);
  return { ...JSON.parse(line.slice(6)), wallMs, errors: report.summary.errorCount, findings: report.diagnostics.map((d) => d.ruleId) };
}

/** The `q` quantile of `xs` (0.5: the median), the nearest rank. */
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))];
};
const median = (xs) => quantile(xs, 0.5);

const runs = arg('runs', 21);
const workflows = arg('workflows', 1000);
const changed = arg('changed', 20);
const os = await import('node:os');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(
  `bench/versioning: ${workflows} workflows, ${runs} fresh processes per variant, interleaved, medians; load average at start ${load()} on ${os.availableParallelism()} cores`,
);

const project = join(generated, 'versioning-project');
const build = join(generated, 'versioning-baseline-build');
generate(project, workflows, () => 'same');
const { deriveCommandShapes, SHAPES_FILE } = await import(pathToFileURL(join(repo, 'packages', 'discovery', 'dist', 'index.js')).href);
rmSync(build, { recursive: true, force: true });
mkdirSync(build, { recursive: true });
writeFileSync(join(build, SHAPES_FILE), JSON.stringify(await deriveCommandShapes(project)));
writeFileSync(join(build, 'skein-build.json'), JSON.stringify({ format: 1, buildId: 'bench' }));
generate(project, workflows, (i) => (i < changed ? 'appended' : i < 2 * changed ? 'inserted' : 'same'));

// [without, with] for every pair; odd pairs run the baseline variant first.
const pairs = Array.from({ length: runs }, (_, i) => {
  if (i % 2 === 0) return [bin(project), bin(project, build)];
  const withFirst = bin(project, build);
  return [bin(project), withFirst];
});
const without = pairs.map((p) => p[0]);
const withBaseline = pairs.map((p) => p[1]);
const found = withBaseline[0].findings.filter((id) => id.startsWith('versioning/'));
console.log(
  `with --baseline: ${found.length} versioning findings (expected ${changed} incompatible), ${withBaseline[0].errors} errors; without: ${without[0].errors} errors`,
);
const ms = (x) => `${x.toFixed(0)} ms`;
const cpuDiffs = pairs.map(([a, b]) => b.cpuMs - a.cpuMs);
const wallDiffs = pairs.map(([a, b]) => b.wallMs - a.wallMs);
const cpuAdded = median(cpuDiffs);
const wallAdded = median(wallDiffs);
const spread = (xs) => `interquartile ${ms(quantile(xs, 0.25))} to ${ms(quantile(xs, 0.75))}`;
console.log('');
console.log(
  `validation without --baseline: CPU ${ms(median(without.map((r) => r.cpuMs)))}, wall ${ms(median(without.map((r) => r.wallMs)))}, peak RSS ${median(without.map((r) => r.peakRssMb)).toFixed(0)} MB`,
);
console.log(
  `validation with --baseline:    CPU ${ms(median(withBaseline.map((r) => r.cpuMs)))}, wall ${ms(median(withBaseline.map((r) => r.wallMs)))}, peak RSS ${median(withBaseline.map((r) => r.peakRssMb)).toFixed(0)} MB`,
);
console.log(
  `added by --baseline (median of ${runs} per-pair differences): CPU ${ms(cpuAdded)} (${spread(cpuDiffs)})  ≤ 100 ms  ${cpuAdded <= 100 ? 'met' : 'NOT met'}; wall ${ms(wallAdded)} (${spread(wallDiffs)})  ≤ 100 ms  ${wallAdded <= 100 ? 'met' : 'NOT met'}`,
);
console.log(`load average at the end: ${load()}`);
