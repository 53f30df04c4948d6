/**
 * The versioning corpus (fixtures/versioning) judged twice: by Temporal's replayer on real histories (every case's v1
 * served by one Skein worker on a dev server of our own, each run driven to its wait point, its history replayed
 * against v2), and by the static check (`compareVersions({ dir: v2, baseline: v1 })` of `@skein/validator`). Prints
 * the agreement table (Markdown, as docs/replay-and-build.md holds it), its counts, and the wall time of each phase
 * (target: the whole corpus in <= 90 s on an idle 2-core machine).
 *
 *   npm run build && node bench/versioning-corpus/run.mjs [--case <name>]... [--progress]
 *
 * The machine's load average is printed with the figures: other processes on a shared machine slow every figure.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pRetry from 'p-retry';
import { locateTemporal, startDevServer } from '@skein/dev-server';
import { agreement, formatAgreement, judgeCorpus, loadCorpus, staticVerdicts } from '../../test/support/versioning-corpus.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (args[i - 1] === '--case' ? [a] : []));
const all = loadCorpus(path.join(repo, 'fixtures', 'versioning'));
const cases = only.length ? all.filter((c) => only.includes(c.name)) : all;

/** Polls `check` every 300 ms until it answers something other than `false`; gives up after `timeoutMs`. */
const waitUntil = (check, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  return pRetry(
    async () => {
      const value = await check();
      if (value === false) throw new Error('wait point not reached in time');
      return value;
    },
    { retries: Math.ceil(timeoutMs / 300), factor: 1, minTimeout: 300, maxTimeout: 300, shouldRetry: () => Date.now() < deadline },
  );
};

const t0 = performance.now();
const temporal = await locateTemporal({ install: false });
const server = await startDevServer({ binary: temporal.path });
try {
  const serverMs = performance.now() - t0;
  // Not alongside the engine work: the static check holds the event loop for seconds at a time.
  const tJudge = performance.now();
  const statics = await staticVerdicts(cases);
  const staticMs = performance.now() - tJudge;
  const judged = await judgeCorpus({
    cases,
    repoRoot: repo,
    temporalAddress: server.address,
    catalog: `versioning-bench-${randomUUID()}`,
    waitUntil,
    progress: args.includes('--progress'),
  });
  const totalMs = performance.now() - tJudge;
  const result = agreement(cases, judged.verdicts, statics);
  console.log(formatAgreement(result));
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const { prepareMs, driveMs, replayMs } = judged.timings;
  console.log(
    `\n${cases.length} cases, ${cases.reduce((n, c) => n + c.runs.length, 0)} runs. wall: dev server ${s(serverMs)} (not counted), static check ${s(staticMs)}, ` +
      `worker + v2 bundle ${s(prepareMs)}, runs driven ${s(driveMs)}, replay ${s(replayMs)}; corpus ${s(totalMs)} (target <= 90 s on an idle 2-core machine); ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
} finally {
  await server.stop();
}
