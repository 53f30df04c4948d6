/**
 * Production start benchmark: a worker started from a build (`skein build`, then `skein worker <buildDir>`)
 * against today's `skein worker <projectDir>`, both as in a fresh container: every cache folder deleted before
 * each start (the project's `.skein/`: startup, bundle and webpack caches; and Node's compile cache, a new empty
 * folder per process). Against a real Temporal dev server and API started here, on the 1,000-workflow generated
 * project (bench/support/generated-project.mjs, 200 packages x 5).
 *
 * Figures (medians over --runs, the two kinds of start interleaved so that load drifts hit both):
 * - `skein build` itself (validation, imports, webpack from scratch, writing the build): figure only;
 * - spawn -> first completed `POST /workflow/run`: target <= 3 s from a build;
 * - worker RSS after 300 further runs (300 different workflows, 10 in flight): target <= 400 MB from a build (the
 *   worker bounds its workflow thread's heap and sizes Temporal's workflow cache to it, and holds its main isolate's
 *   young generation; README's "Where the memory goes" lists what else was measured);
 * each compared with `skein worker <projectDir>` measured in the same run (the ratio build / project).
 *
 * From the project, the worker bundles in a child process that has exited before it serves: targets <= 450 MB after
 * the first run and <= 500 MB after the 300 further runs. `--baseline <checkout>` measures another checkout's (built)
 * `skein worker <projectDir>` in the same rounds.
 *
 *   npm run build && node bench/worker-build/run.mjs [--runs 3] [--baseline /work/main]
 *
 * The machine's load average is printed with the figures: other processes on a shared machine slow every figure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createApiServer, loadApiConfig } from '@skein/api';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { generateProject } from '../support/generated-project.mjs';
import { spawnWorker } from '../support/worker-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || fallback : fallback);
const RUNS = option('--runs', 3);
/** Another checkout (built) whose `skein worker <projectDir>` is measured in the same rounds, side by side. */
/** `--only project`: measure `skein worker <projectDir>` alone (no build, no worker from a build). */
const ONLY_PROJECT = args.includes('--only') && args[args.indexOf('--only') + 1] === 'project';
const BASELINE = args.includes('--baseline') ? path.resolve(args[args.indexOf('--baseline') + 1]) : undefined;
/** Runs after the first, and how many at a time. */
const FURTHER_RUNS = 300;
const IN_FLIGHT = 10;
/** Bound of the whole load of one worker (ms). */
const LOAD_TIMEOUT_MS = 300_000;
const bin = path.join(repo, 'packages/cli/bin/skein.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// A page for the generated steps to fetch.
const page = createServer((_req, res) => res.end('short page'));
await new Promise((r) => page.listen(0, '127.0.0.1', r));
const input = { url: `http://127.0.0.1:${page.address().port}/` };

const temporal = await locateTemporal();
const server = await startDevServer({ binary: temporal.path });
const api = await createApiServer(loadApiConfig({ ...process.env, TEMPORAL_ADDRESS: server.address, PORT: '0' }), { logger: pino({ level: 'silent' }) });
const { url: apiUrl } = await api.listen();

const big = path.join(repo, 'bench', '.generated', 'worker-build');
const buildDir = path.join(repo, 'bench', '.generated', 'worker-build-out');
const compileCaches = [];

/** Every cache folder of a fresh container: the project's `.skein/`, and a new, empty Node compile cache for the process. */
function freshCaches() {
  rmSync(path.join(big, '.skein'), { recursive: true, force: true });
  const compileCache = mkdtempSync(path.join(tmpdir(), 'skein-bench-compile-'));
  compileCaches.push(compileCache);
  return { NODE_COMPILE_CACHE: compileCache };
}

const baseEnv = () => ({
  ...process.env,
  TEMPORAL_ADDRESS: server.address,
  SKEIN_LOG_PRETTY: '0',
  SKEIN_LOG_LEVEL: 'info',
  SKEIN_TRACE_DIR: 'off',
  ...freshCaches(),
});

/** Peak and current RSS of a process (MB), from /proc. */
function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024, peakMb: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024 };
}

/** `skein build <big> --out <buildDir>` with fresh caches; resolves with its wall time and peak RSS. */
async function build() {
  rmSync(buildDir, { recursive: true, force: true });
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'build', big, '--out', buildDir], {
    env: baseEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.once('exit', r));
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`skein build exited with ${code}:\n${out}\n${err}`);
  const peakMb = Number(err.trim().split('\n').pop()) / 1024;
  console.error(JSON.stringify({ build: Math.round(ms), peakMb: Math.round(peakMb), out: out.trim(), load: loadavg()[0] }));
  return { ms, peakMb };
}

const run = async (workflowName, catalog) => {
  const res = await fetch(`${apiUrl}/workflow/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // A loaded shared machine can take longer than the API's default 30 s wait.
    body: JSON.stringify({ workflowName, input, catalog, timeout: 300_000 }),
  });
  const body = await res.json();
  if (body.status !== 'completed') throw new Error(`${workflowName} did not complete: ${JSON.stringify(body)}`);
};

/** Spawns `skein worker <target>` (fresh caches), runs one workflow, then 300 more; resolves with the timings and RSS, stops the worker. */
let starts = 0;
async function startAndLoad(kind, target, skeinBin = bin) {
  // A catalog (and so a deployment) of its own per start: a build that served a catalog and was replaced there is
  // not made current again by a restart (another checkout's build came between, with --baseline).
  const catalog = `bench-${process.pid}-${starts++}`;
  const t0 = performance.now();
  const { child, ready, readyMs } = await spawnWorker(skeinBin, target, { ...baseEnv(), SKEIN_CATALOG: catalog });
  await run('wf_0_0', catalog);
  const firstMs = performance.now() - t0;
  const afterFirst = rssOf(child.pid);
  // 300 different workflows (each evaluates its own modules in the sandbox and loads its own steps), 10 at a time.
  const names = Array.from({ length: FURTHER_RUNS }, (_, i) => `wf_${(i + 1) % 200}_${Math.floor((i + 1) / 200) % 5}`);
  const tLoad = performance.now();
  let next = 0;
  await Promise.race([
    Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < names.length) await run(names[next++], catalog);
      }),
    ),
    new Promise((_, reject) => setTimeout(() => reject(new Error('300 runs took longer than the bound')), LOAD_TIMEOUT_MS).unref()),
  ]);
  const loadMs = performance.now() - tLoad;
  const after = rssOf(child.pid);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  const r = { kind, firstMs, readyMs, loadMs, rssFirstMb: afterFirst.rssMb, rssMb: after.rssMb, peakMb: after.peakMb, startup: ready.startup };
  console.error(
    JSON.stringify({
      ...r,
      firstMs: Math.round(firstMs),
      readyMs: Math.round(readyMs),
      loadMs: Math.round(loadMs),
      rssMb: Math.round(after.rssMb),
      load: loadavg()[0],
    }),
  );
  return r;
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mb = (x) => `${x.toFixed(0)} MB`;
const verdict = (value, target) => (value <= target ? 'target met' : 'target MISSED');

try {
  generateProject(big, { packages: 200, workflows: 5 });
  const builds = [];
  const fromBuild = [];
  const fromProject = [];
  const fromBaseline = [];
  for (let i = 0; i < RUNS; i++) {
    if (ONLY_PROJECT) {
      const r = await startAndLoad('project', big);
      console.log(
        `load average ${loadavg()[0].toFixed(2)}: skein worker <projectDir> first run ${fmt(r.firstMs)}, RSS after the first run ${mb(r.rssFirstMb)} (target <= 450 MB), ` +
          `after ${FURTHER_RUNS} further runs ${mb(r.rssMb)} (target <= 500 MB), peak ${mb(r.peakMb)}`,
      );
      if (BASELINE) {
        const b = await startAndLoad('baseline project', big, path.join(BASELINE, 'packages/cli/bin/skein.js'));
        console.log(
          `load average ${loadavg()[0].toFixed(2)}: baseline (${BASELINE}) skein worker <projectDir> first run ${fmt(b.firstMs)}, RSS after the first run ${mb(b.rssFirstMb)}, ` +
            `after ${FURTHER_RUNS} further runs ${mb(b.rssMb)}, peak ${mb(b.peakMb)}`,
        );
      }
      continue;
    }
    builds.push(await build());
    fromBuild.push(await startAndLoad('build', buildDir));
    fromProject.push(await startAndLoad('project', big));
    if (BASELINE) fromBaseline.push(await startAndLoad('baseline project', big, path.join(BASELINE, 'packages/cli/bin/skein.js')));
  }
  if (!ONLY_PROJECT) {
    const med = (rs, f) => median(rs.map(f));
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(`load average ${load} on ${availableParallelism()} cores (a shared machine: other work slows every figure)`);
    console.log(`1,000-workflow project, every cache folder deleted before each start, median of ${RUNS}:`);
    const b = med(builds, (r) => r.ms);
    console.log(`  skein build:                                  ${fmt(b)} (peak RSS ${mb(med(builds, (r) => r.peakMb))}); figure only`);
    const f = med(fromBuild, (r) => r.firstMs);
    const p = med(fromProject, (r) => r.firstMs);
    console.log(`  spawn -> first run, skein worker <buildDir>:   ${fmt(f)}; target <= 3 s: ${verdict(f, 3000)}`);
    console.log(`  spawn -> first run, skein worker <projectDir>: ${fmt(p)}; build / project ${(f / p).toFixed(2)}`);
    const stages = (rs) => {
      const k = (key) => fmt(med(rs, (r) => r.startup[key]));
      return `process ${fmt(med(rs, (r) => r.readyMs - r.startup.totalMs))}, validation ${k('validateMs')}, loading ${k('loadMs')}, bundle ${k('bundleMs')} (${rs[0].startup.bundleCache}), engine ${k('connectMs')}, first run ${fmt(med(rs, (r) => r.firstMs - r.readyMs))}`;
    };
    console.log(`    build:   ${stages(fromBuild)}`);
    console.log(`    project: ${stages(fromProject)}`);
    const rb = med(fromBuild, (r) => r.rssMb);
    const rp = med(fromProject, (r) => r.rssMb);
    console.log(
      `  RSS after ${FURTHER_RUNS} further runs, from the build:   ${mb(rb)} (after the first run ${mb(med(fromBuild, (r) => r.rssFirstMb))}, peak ${mb(med(fromBuild, (r) => r.peakMb))}); target <= 400 MB: ${verdict(rb, 400)}`,
    );
    console.log(
      `  RSS after ${FURTHER_RUNS} further runs, from the project: ${mb(rp)} (after the first run ${mb(med(fromProject, (r) => r.rssFirstMb))}, peak ${mb(med(fromProject, (r) => r.peakMb))}); build / project ${(rb / rp).toFixed(2)}`,
    );
    const rpFirst = med(fromProject, (r) => r.rssFirstMb);
    console.log(
      `    from the project: after the first run target <= 450 MB: ${verdict(rpFirst, 450)}; after ${FURTHER_RUNS} runs target <= 500 MB: ${verdict(rp, 500)}`,
    );
    if (BASELINE) {
      console.log(
        `  baseline (${BASELINE}) from the project: first run ${fmt(med(fromBaseline, (r) => r.firstMs))}, RSS after the first run ${mb(med(fromBaseline, (r) => r.rssFirstMb))}, after ${FURTHER_RUNS} runs ${mb(med(fromBaseline, (r) => r.rssMb))}`,
      );
    }
    console.log(
      `  ${FURTHER_RUNS} runs (${IN_FLIGHT} in flight) took ${fmt(med(fromBuild, (r) => r.loadMs))} from the build, ${fmt(med(fromProject, (r) => r.loadMs))} from the project`,
    );
  }
} finally {
  await api.close();
  await server.stop();
  page.close();
  for (const dir of compileCaches) rmSync(dir, { recursive: true, force: true });
}
