/**
 * Validator benchmark (ISSUE 9 point 7): a full validation of a generated workflow package of 1,000 workflow
 * folders (workflow, steps, evaluators and a helper module each: 4,002 files), written once in JavaScript and once
 * in TypeScript (`.ts` sources with `.js`-suffixed imports and type annotations), plus the worker's startup
 * validation of the `examples` project.
 *
 *   npm run build && node bench/validate/run.mjs [--runs 5] [--workflows 1000]
 *
 * The packages are generated under bench/.generated/ (gitignored; inside the repository, so project mode also lists
 * the repository's ~500 installed packages, as a real project's node_modules would be). Every figure is the median
 * over `--runs` fresh Node processes (cold module cache and JIT; the OS file cache is warm after generation), printed
 * against its target:
 * - CPU seconds (every thread of the process) of one `validate()` of the JavaScript package, module loading excluded
 *   (target ≤ 1.0 s), as the library runs it and under the V8 flags the `validate-workflow-package` command sets for
 *   its own process (`VALIDATION_V8_FLAGS`: `--no-turbofan --semi-space-growth-factor=1`), the two interleaved;
 * - CPU seconds of `validate-workflow-package <package>` as users run it (the whole process: module loading, the
 *   validation, JSON output), reported by `probe.mjs` preloaded into that process (same target);
 * - peak RSS of that process (target ≤ 150 MB);
 * - the TypeScript project's CPU over the JavaScript project's, the two run interleaved in the same run so both see
 *   the same machine load (target ≤ 1.3).
 * The load average is printed with the figures: on a shared 2-core machine CPU time is the steadier figure, but it
 * still grows with load (caches, JIT threads competing); so does the split between the main thread and V8's
 * background threads (`process.threadCpuUsage()`), printed for reference.
 *
 * Where the time goes (CPU profiles, `node --cpu-prof`, self time summed per file over cold runs, load ~7 on 2
 * cores): before the first round @babel/parser 30%, traversal and rule visitors 8%, GC 5-12%, realpath/stat/readFile
 * system calls 13% (one realpath per file and per folder, through the confinement check and the resolver), path
 * resolution and the resolver 8% (each import resolved three times), listing the repository's node_modules 3%, the
 * rest spread thin over discovery and the rules. After it: @babel/parser 32-34%, GC 12%, traversal 8-10%, readFile
 * 3-5%, no realpath system calls, each import resolved once. Memory: the retained facts of all 4,000 modules are
 * ~25 MB (ASTs are dropped after each file's traversal); the rest of the old peak RSS was the young generation
 * growing to 64 MB, which the command keeps at its initial size (packages/validator/src/thread-limits.ts).
 *
 * The second round (same machine, load 5-8 throughout, so A/B runs alternate the variants in one run and take
 * medians of 5-7 fresh processes):
 * - How to read a profile here: under load a sample can span a 100-200 ms deschedule and lands on whatever function
 *   ran (one profile blamed `classifyFile` for 210 ms: one sample); cap each sample's time at the sampling interval
 *   before summing. A TurboFan-compiled function also absorbs its inlined callees (`activitiesOfFile` showed 50 ms
 *   of self time per warm run): profile with `--no-turbo-inlining --no-maglev-inlining` to see who does the work.
 * - Split by thread (`process.threadCpuUsage()`): a cold validation is ~0.93 s on the main thread and ~0.65 s on V8's
 *   background threads. Parsing the same 4,000 files alone, cold, in a fresh process, costs 0.48 s (0.23 s main,
 *   0.25 s background): the parser plus its JIT is about a third of the total. A warm validation (the same process,
 *   third run) is ~0.6 s of main thread, 0.2 s of it parsing.
 * - The background threads are mostly TurboFan (`--trace-opt` compile times: ~60% of them for @babel/parser's
 *   functions, recompiled for a run that is over before the faster code pays back): with TurboFan off the main
 *   thread's CPU is unchanged and the total drops by 0.25-0.3 s (in-process A/B: 1.56 → 1.29 s; parsing alone 0.50
 *   → 0.34 s). So `validate-workflow-package`, a process that exists to validate, sets `--no-turbofan` for itself
 *   (`useValidationV8Flags`, before its validation thread starts; command A/B 1.80 → 1.54 s). `--max-opt=2` does the
 *   same on the command line but not when set at run time; the library's `validate()` leaves the process's flags
 *   alone (a worker keeps TurboFan for its workflows).
 * - The traversal skips what no visitor can act on (`VISIT_SCOPE` in packages/discovery/src/visitor-table.ts):
 *   visitors whose words (`require`, `import(`, `process`, `fetch`, ...) the file's text lacks are left out, and
 *   when every remaining one acts at module level the walk does not enter functions. In-process A/B: 1.70 → 1.58 s.
 * - Real paths, package roots and relative specifiers without `path.normalize`/`join`/`resolve` per file (string
 *   splits of already normalized paths, per-folder `deepestRoot` answers): warm main thread 623 → 598 ms, below the
 *   noise of a cold run.
 * - Measured without gain (cold, in-process unless said): `--battery-saver-mode` (-0.29 s in-process, but less than
 *   `--no-turbofan` for the command: 1.68 vs 1.58 s), `--efficiency-mode` (everything on the main thread; 1.36 s
 *   in-process, 1.72 s for the command), `--single-threaded`, `--single-threaded-gc`, `--min-semi-space-size=16`,
 *   `--invocation-count-for-turbofan` 1,000 (worse: 0.69 s parsing alone) and
 *   10,000 (no change), `--invocation-count-for-maglev=100`, `--no-lazy-feedback-allocation`,
 *   `--max-inlined-bytecode-size-cumulative=200`, `--max-opt=1` (2.6 s), `NODE_COMPILE_CACHE` for the command
 *   (1.52 vs 1.50 s), a 24 MB young generation for the validation thread (1.71 vs 1.69 s).
 * - Not met in-process: what is left is @babel/parser with its JIT warm-up (~0.45 s), GC (~0.1 s) and the analysis'
 *   own work spread over reading, resolving, discovery and the rules (no function above 3% once profiled honestly).
 *
 * Third round, file system, walk, classification and import resolution (in-process A/B against the second round's
 * main, --no-turbofan, cold, interleaved, medians of per-pair differences: -124 ms CPU and -105 ms main thread over
 * 9 pairs at load 4-5, -77 and -94 ms over 11 pairs at load 2-3; the TypeScript project -191 and -147 ms over 7
 * pairs; so roughly 1.27 -> 1.20 CPU-s on a quiet machine): the caching file
 * system keeps answers without a wrapper object per path; confinement splits normalized paths as strings (no
 * `path.resolve` per new path); `deepestRoot` remembers its answer per path (the linter and the resolver ask about
 * every file); the walk joins names with `joinName` and keeps one ancestor set; `classifyFile` reads the path's tail
 * and remembers its answer per path (29,000 calls for 4,002 files); the resolver shares the answers that depend on
 * the specifier alone (`@skein/core`, built-ins: two thirds of all imports). What is left here is mostly system calls
 * (one stat for the size cap and one read per file, one readdir per folder: ~70 ms) and map lookups, which cost
 * ~0.3-1 µs each in a full run (cold caches; 0.05 µs in a micro-benchmark): timing each call in-process is the honest
 * measure, not a micro-benchmark. Measured without gain: a regex-free `sourceStem` (~10% of a computation that now
 * runs once per path), reading a file with open/fstat/read instead of stat + readFile (12 vs 13.5 µs per file).
 *
 * Third round, the per-file rule machinery (measured alone against 2852d09, cold, --no-turbofan, interleaved, load 3): file rules
 * picked per role once, one context object per rule and file (methods, package root looked up on first use), constant
 * `VISIT_SCOPE` tables listed last in visitor literals (a computed key first is a V8 slow path), visitors not made when
 * their words are absent (discovery's unsupported-forms visitor, the globals rules' `words`), one record per node type
 * in the walk, and no path for a node nothing sees: per-pair median -50 and -49 ms CPU, -42 and -44 ms main thread
 * (9 pairs each; 1.31 -> 1.26 and 1.32 -> 1.29 s). On top of the round above (merged, against 5ffd7ba): -32 and -39 ms
 * CPU, -28 and -31 ms main thread (9 and 11 pairs; 1.10 -> 1.04 and 1.12 -> 1.06 s); both rounds against 2852d09:
 * -160 ms CPU (9 pairs, 1.20 -> 1.05 s), the TypeScript project -136 ms (7 pairs, 1.52 -> 1.39 s). Measured without gain: a prefilter of the word patterns with
 * `String.prototype.includes` (slower cold than the regexes: 12.7 vs 7.8 ms for 4,000 texts). Left: visitorsFor's
 * `isOwnFile`/`classifyFile` (~15 ms), the walk's megamorphic child reads (132,000 nodes), analyzeModule (~25 ms).
 * Third round, the command around `validate()` (bin A/B against the round's start, probe as below, interleaved,
 * 9 pairs at load 1-2: 1.15 -> 1.05 CPU-s, median pair difference -105 ms; peak RSS 129 -> 108 MB): the validation
 * thread cost ~0.1 CPU-s (a second isolate: ~47 ms empty, plus its own bootstrap and module loading; the command on an
 * empty folder 222 -> 125 ms), so the command runs on its main thread and keeps the young generation small with
 * `--semi-space-growth-factor=1` (a semi-space size set at run time is ignored; the growth factor is read at each
 * growth). In-process under the command's flags this flag costs ~+25 ms against an unbounded young generation (5
 * pairs), which the bin no longer has to beat. Node's compile cache (`module.enableCompileCache()`): -22 ms warm, +6 ms
 * on the first run (7 triples). Left: module loading ~45 ms with the cache (74 files: resolution, linking,
 * @babel/types' evaluation ~7 ms, jsonc-parser ~4 ms), JSON output ~10 ms, GC.
 * The third round as a whole (all three merged, against 2852d09, 9 interleaved pairs at load 0.6-1.5, each build under
 * its own command flags): the command 1.32 -> 1.06 CPU-s, `validate()` under the flags 1.26 -> 1.12, `validate()`
 * 1.33 -> 1.21. Measured without gain afterwards: `--no-concurrent-sparkplug`, `--no-sparkplug` (5 triples, within
 * noise), `Error.stackTraceLimit = 0` around parsing (Babel's TypeScript plugin builds a SyntaxError for each failed
 * speculative parse, such as `a < b` read as type arguments: -10 to -20 ms on the TypeScript project, noise), and the
 * parser options (`decorators-legacy` off, `errorRecovery` off: TypeScript parsing 0.58 CPU-s either way, against
 * 0.40 for the same files as JavaScript). Left, on the main thread of a cold run: parsing ~40%, the system calls of
 * reading and listing 15-20% (one stat and one readFile per file, one readdir per folder; reading through
 * open/fstat/read instead measured 12 vs 13.5 µs a file), resolution ~10%, the walk and rules ~10%, GC ~5%.
 * The command's small young generation costs ~290 scavenges (~0.1 s); a larger fixed one set on `node`'s command line
 * (`--min-semi-space-size` 2/4/8, 4 runs each) showed no gain above the machine's noise (RSS 116-146 MB).
 */
import { spawnSync } from 'node:child_process';
import { generate } from './generate.mjs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..');
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
  const mainCpu = [];
  let report;
  for (let i = 0; i <= warmRuns; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const tc = process.threadCpuUsage();
    report = await validate(dir);
    const used = process.cpuUsage(c);
    const usedHere = process.threadCpuUsage(tc);
    times.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
    mainCpu.push((usedHere.user + usedHere.system) / 1000);
  }
  clearInterval(timer);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  process.stdout.write(
    JSON.stringify({
      loadMs,
      coldMs: times[0],
      warmMs: times.slice(1),
      coldCpuMs: cpu[0],
      coldMainCpuMs: mainCpu[0],
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

/** One measurement in a fresh Node process; `v8Flags`: V8 flags on its command line. */
function child(dir, warm, v8Flags = []) {
  const r = spawnSync(process.execPath, [...v8Flags, fileURLToPath(import.meta.url), '--measure', dir, '--warm', String(warm)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`measurement failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

/** One run of the `validate-workflow-package` bin as users run it; the probe reports the whole process. */
function bin(dir) {
  const probe = join(here, 'probe.mjs');
  const r = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(probe).href, join(repo, 'packages', 'validator', 'bin', 'validate-workflow-package.js'), dir, '--format', 'json', '--quiet'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const line = r.stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (r.status === null || r.status > 1 || !line) throw new Error(`validate-workflow-package failed (${r.status}): ${r.stderr}`);
  return JSON.parse(line.slice('BENCH '.length));
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
  const os = await import('node:os');
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const rows = [];
  /** One figure against its target: `value` and `target` in the figure's unit, `fmt` renders both. */
  const figure = (what, value, target, fmt) =>
    rows.push([what, fmt(value), target === undefined ? '' : `≤ ${fmt(target)}`, target === undefined ? '' : value <= target ? 'met' : 'NOT met']);

  console.log(
    `bench/validate: ${workflows} workflows, ${runs} fresh processes per figure, medians; load average at start ${load()} on ${os.availableParallelism()} cores`,
  );
  const pkgTree = generate(workflows, { pkg: true });
  // The library's validate() as is, and under the V8 flags the validate-workflow-package command sets for its own
  // process (VALIDATION_V8_FLAGS), interleaved so both see the same machine load.
  const { VALIDATION_V8_FLAGS } = await import(dist);
  const flagged = [];
  const inProcess = [];
  for (let i = 0; i < runs; i++) {
    inProcess.push(child(pkgTree.dir, 0));
    flagged.push(child(pkgTree.dir, 0, VALIDATION_V8_FLAGS));
  }
  const first = inProcess[0];
  console.log(
    `JavaScript package: ${pkgTree.files} files, ${first.workflows} workflows, ${first.errors} errors, ${first.filesChecked} files checked (each read, parsed and walked once)`,
  );
  const bins = Array.from({ length: runs }, () => bin(pkgTree.dir));
  figure(
    'full validation of the JS package, CPU (validate() in a fresh process, module loading excluded)',
    median(inProcess.map((r) => r.coldCpuMs)),
    1000,
    secs,
  );
  figure(`the same under the command's V8 flags (${VALIDATION_V8_FLAGS.join(' ')})`, median(flagged.map((r) => r.coldCpuMs)), 1000, secs);
  figure(
    'CPU of validate-workflow-package on the JS package (whole process: module loading, validation, JSON output)',
    median(bins.map((r) => r.cpuMs)),
    1000,
    secs,
  );
  figure(
    'peak RSS of validate-workflow-package on the JS package (the process as users run it)',
    median(bins.map((r) => r.peakRssMb)),
    150,
    (mb) => `${mb.toFixed(0)} MB`,
  );

  // The two variants run interleaved (JS, TS, JS, TS, ...) so both see the same machine load; the ratio is of medians.
  const jsTree = generate(workflows, { pkg: false });
  const tsTree = generate(workflows, { pkg: false, ts: true });
  const pairs = Array.from({ length: runs }, () => [child(jsTree.dir, 0), child(tsTree.dir, 0)]);
  const jsCpu = median(pairs.map((p) => p[0].coldCpuMs));
  const tsCpu = median(pairs.map((p) => p[1].coldCpuMs));
  console.log(
    `JavaScript / TypeScript projects: ${jsTree.files} / ${tsTree.files} files, ${pairs[0][0].workflows} / ${pairs[0][1].workflows} workflows, ${pairs[0][0].errors} / ${pairs[0][1].errors} errors`,
  );
  figure('TypeScript / JavaScript project CPU ratio (same run, interleaved)', tsCpu / jsCpu, 1.3, (x) => x.toFixed(2));

  const examples = Array.from({ length: runs }, () => child(join(repo, 'examples'), 0));
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log('');
  for (const [what, value, target, verdict] of rows) console.log(`${what.padEnd(width)}  ${value.padStart(8)}  ${target.padStart(10)}  ${verdict}`);
  console.log('\nfor reference (medians):');
  const split = (rs) =>
    `main thread ${secs(median(rs.map((r) => r.coldMainCpuMs)))}, V8's background threads ${secs(median(rs.map((r) => r.coldCpuMs - r.coldMainCpuMs)))}`;
  console.log(
    `  JS package in-process: wall ${secs(median(inProcess.map((r) => r.coldMs)))}, peak RSS ${median(inProcess.map((r) => r.peakRssMb)).toFixed(0)} MB (V8's default young generation), module loading ${median(inProcess.map((r) => r.loadMs)).toFixed(0)} ms`,
  );
  console.log(`  JS package in-process CPU: ${split(inProcess)}; under ${VALIDATION_V8_FLAGS.join(' ')}: ${split(flagged)}`);
  console.log(
    `  JS project CPU ${secs(jsCpu)}, TS project CPU ${secs(tsCpu)}; median of per-pair ratios ${median(pairs.map(([a, b]) => b.coldCpuMs / a.coldCpuMs)).toFixed(2)}`,
  );
  console.log(
    `  worker startup validation (examples project, fresh process, module load included): ${median(examples.map((r) => r.loadMs + r.coldMs)).toFixed(0)} ms ` +
      `(load ${median(examples.map((r) => r.loadMs)).toFixed(0)} ms + validate ${median(examples.map((r) => r.coldMs)).toFixed(0)} ms, ${examples[0].workflows} workflows, ${examples[0].errors} errors)`,
  );
  console.log(`load average at the end: ${load()}`);
}
