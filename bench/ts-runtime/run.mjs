/**
 * Run-time TypeScript benchmark: what loading a project's activity modules from `.ts` sources costs the worker
 * (Node's type stripping + the worker's `.js` → `.ts` resolve hook) against loading the same modules compiled
 * to `.js` (the baseline, in the same run).
 *
 *   npm run build && node bench/ts-runtime/run.mjs [--runs 7] [--modules 200]
 *
 * Generates, under bench/.generated/ts-runtime (gitignored), `--modules` steps files in TypeScript, each
 * importing a shared helper with a `.js` suffix and `@skein/core`, and their `tsc` output. Each measurement is a
 * fresh Node process importing every module (cold module cache) after `@skein/core`. Prints the median CPU and
 * wall ms of each, the extra CPU per module and the CPU ratio.
 * Target: at most 2 ms of extra CPU per module (a 200-module project starts at most 0.4 s later from source).
 * The CPU ratio is printed too; for modules this small it is dominated by Node's stripping itself (~2×).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const outDir = join(here, '..', '.generated', 'ts-runtime');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const MODULES = arg('modules', 200);
const RUNS = arg('runs', 7);
const TARGET_EXTRA_MS_PER_MODULE = 2;

if (args.includes('--once')) {
  const i = args.indexOf('--once');
  const [dir, ext, withHook] = args.slice(i + 1);
  // @skein/core (zod, Temporal) is the same for both and loaded first: only the project's modules are timed.
  await import('@skein/core');
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  if (withHook === 'hook') {
    const { enableTypeScriptSources } = await import(pathToFileURL(join(repo, 'packages/worker/dist/host/typescript/resolve-hook.js')).href);
    enableTypeScriptSources();
  }
  for (let i = 0; i < MODULES; i++) await import(pathToFileURL(join(dir, `flow${i}`, `steps.${ext}`)).href);
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ ms: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000 }));
  process.exit(0);
}

function write(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

rmSync(outDir, { recursive: true, force: true });
write(join(outDir, 'package.json'), JSON.stringify({ name: 'bench-ts-runtime', private: true, type: 'module' }));
symlinkSync(join(repo, 'node_modules'), join(outDir, 'node_modules'), 'dir');
write(
  join(outDir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      rootDir: 'src',
      outDir: 'dist',
      strict: true,
      skipLibCheck: true,
      types: [],
    },
    include: ['src'],
  }),
);
write(
  join(outDir, 'src', 'lib', 'format.ts'),
  `export interface Line { label: string; value: number }\nexport function format(line: Line): string {\n  return \`\${line.label}: \${line.value.toFixed(2)}\`;\n}\n`,
);
for (let i = 0; i < MODULES; i++) {
  write(
    join(outDir, 'src', `flow${i}`, 'steps.ts'),
    `import { step, z } from '@skein/core';\nimport { format, type Line } from '../lib/format.js';\n\n` +
      `export const render${i} = step({\n  name: 'render${i}',\n  inputSchema: z.object({ label: z.string(), value: z.number() }),\n` +
      `  fn: async (line: Line): Promise<string> => format(line),\n});\n`,
  );
}
execFileSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(outDir, 'tsconfig.json')]);

function once(dir, ext, hook) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--modules', String(MODULES), '--once', dir, ext, hook], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const js = [];
const ts = [];
for (let r = 0; r < RUNS; r++) {
  js.push(once(join(outDir, 'dist'), 'js', 'none'));
  ts.push(once(join(outDir, 'src'), 'ts', 'hook'));
}
const cpu = (xs) => median(xs.map((x) => x.cpuMs));
const wall = (xs) => median(xs.map((x) => x.ms));
const ratio = cpu(ts) / cpu(js);
console.log(`modules: ${MODULES}, runs: ${RUNS} (times exclude loading @skein/core itself)`);
console.log(`compiled .js (baseline): median ${cpu(js).toFixed(1)} ms CPU, ${wall(js).toFixed(1)} ms wall`);
console.log(`.ts from source (type stripping + resolve hook): median ${cpu(ts).toFixed(1)} ms CPU, ${wall(ts).toFixed(1)} ms wall`);
const extra = (cpu(ts) - cpu(js)) / MODULES;
console.log(`ratio to the compiled baseline (CPU, less sensitive to other load): ${ratio.toFixed(2)}×`);
console.log(
  `extra per module: ${extra.toFixed(2)} ms CPU (target ≤ ${TARGET_EXTRA_MS_PER_MODULE} ms) ${extra <= TARGET_EXTRA_MS_PER_MODULE ? 'OK' : 'OVER TARGET'}`,
);
