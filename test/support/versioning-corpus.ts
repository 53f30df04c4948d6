/**
 * The versioning corpus (`fixtures/versioning/<case>/{v1,v2,case.json}`) judged by Temporal's own replayer: every
 * case's v1 runs on a real engine through Skein's worker, each run is driven to the wait point its `case.json`
 * names, its history is fetched and replayed against the case's v2 code. Shared by the integration test
 * (`test/validator/versioning-corpus.test.ts`) and the bench (`bench/versioning-corpus/run.mjs`); Node runs this
 * file with its own type stripping, so it holds erasable TypeScript only and imports packages, never relative files.
 *
 * To stay fast, the cases are not served one by one: the v1 sides of all cases are assembled into ONE project (each
 * case's `src/` under `src/<case>/`; workflow names are distinct across cases), served by one worker on one task
 * queue, and the v2 sides into another project bundled once for the replayer.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import { z } from 'zod';
import { pino } from 'pino';
import protoModule from '@temporalio/proto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { createTestEnv, replayHistories, type RecordedHistory, type TestEnv } from '@skein/testing';
import { prepareProject } from '@skein/worker';
import { compareVersions } from '@skein/validator';

// CommonJS: its default export is the namespace, as in the worker's replay.
const EventType = protoModule.temporal.api.enums.v1.EventType as unknown as Record<number, string>;

/** Event counts a run's (latest) history must reach, by event type without its `EVENT_TYPE_` prefix; `continued`: the run was continued as new. */
const untilSchema = z.record(z.string(), z.union([z.number().int().min(1), z.literal(true)]));

/**
 * One step of driving a run: wait for its history to reach counts with the run idle (or, with `pendingStep`, idle
 * but for that one step, scheduled and being retried), or send a signal or an update.
 */
const driveStepSchema = z.union([
  z.strictObject({ until: untilSchema, pendingStep: z.string().optional() }),
  z.strictObject({ signal: z.string(), args: z.array(z.unknown()).default([]) }),
  z.strictObject({ update: z.string(), args: z.array(z.unknown()).default([]) }),
]);

/** A run of v1: its input, the wait point it is left at (`waitsAt`, prose) and how it is driven there. */
const runSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9-]+$/),
  waitsAt: z.string().min(1),
  input: z.unknown(),
  drive: z.array(driveStepSchema).min(1),
});

/**
 * What `case.json` holds: what the case changes and exercises, the workflow it changes (its name is unique across
 * the corpus), the workflow's versioning behaviour, the verdict Temporal's replayer gives it (checked on every run
 * of the test: a case whose runs stop reaching the point that shows its change fails), whether it was built to be
 * beyond static analysis (a computed activity, dynamic dispatch), and the runs of v1 replayed against v2.
 */
export const caseSchema = z.strictObject({
  description: z.string().min(1),
  change: z.string().min(1),
  exercises: z.array(z.string()).min(1),
  workflow: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  versioningBehavior: z.enum(['auto-upgrade', 'pinned']),
  replayer: z.enum(['compatible', 'incompatible']),
  designedUnprovable: z.boolean(),
  runs: z.array(runSchema).min(1),
});

export type CorpusCaseSpec = z.infer<typeof caseSchema>;
export type DriveStep = z.infer<typeof driveStepSchema>;

/** A case of the corpus: its folder name, its folder, and its `case.json`. */
export interface CorpusCase extends CorpusCaseSpec {
  name: string;
  dir: string;
}

/**
 * The cases under `corpusDir`, sorted by name.
 * @throws Error naming the case when a `case.json` is missing or does not match `caseSchema`, or when two cases
 *   change workflows of the same name.
 */
export function loadCorpus(corpusDir: string): CorpusCase[] {
  const cases = readdirSync(corpusDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const dir = path.join(corpusDir, name);
      const parsed = caseSchema.safeParse(JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')));
      if (!parsed.success) throw new Error(`fixtures/versioning/${name}/case.json: ${z.prettifyError(parsed.error)}`);
      return { name, dir, ...parsed.data };
    });
  const seen = new Map<string, string>();
  for (const c of cases) {
    const other = seen.get(c.workflow);
    if (other) throw new Error(`cases ${other} and ${c.name} both change workflow "${c.workflow}"; workflow names are unique across the corpus`);
    seen.set(c.workflow, c.name);
  }
  return cases;
}

/**
 * Assembles one project from one side (`v1` or `v2`) of every case: `<dir>/src/<case>/…` is a copy of the case's
 * `<side>/src/…`, `node_modules` links to the repository's. Answers the project's directory (under the OS temp dir).
 */
export function assembleProject(cases: CorpusCase[], side: 'v1' | 'v2', repoRoot: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `skein-versioning-${side}-`));
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: `versioning-corpus-${side}`, private: true, type: 'module', dependencies: { '@skein/core': '0.1.0', zod: '^4.6.7' } }, null, 2)}\n`,
  );
  cpSync(path.join(cases[0]!.dir, side, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  for (const c of cases) {
    mkdirSync(path.join(dir, 'src', c.name), { recursive: true });
    cpSync(path.join(c.dir, side, 'src'), path.join(dir, 'src', c.name), { recursive: true });
  }
  return dir;
}

/** Runs driven at the same time: enough to keep the worker busy, few enough that history polls do not starve it. */
const DRIVEN_AT_ONCE = 32;

type HistoryEvent = NonNullable<RecordedHistory['history']['events']>[number];

/** Counts of a history's events by type name (`TIMER_STARTED`), plus whether its run was continued as new. */
function countEvents(events: HistoryEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) {
    const type = (EventType[Number(e.eventType)] ?? 'UNKNOWN').replace(/^EVENT_TYPE_/, '');
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return counts;
}

const sum = (counts: Map<string, number>, ...types: string[]) => types.reduce((n, t) => n + (counts.get(t) ?? 0), 0);

/** The activity types of the activities scheduled in `events` and not closed yet. */
function openActivities(events: HistoryEvent[]): string[] {
  const open = new Map<string, string>();
  for (const e of events) {
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) open.set(String(e.eventId), scheduled.activityType?.name ?? '');
    const closed =
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskFailedEventAttributes ??
      e.activityTaskTimedOutEventAttributes ??
      e.activityTaskCanceledEventAttributes;
    if (closed) open.delete(String(closed.scheduledEventId));
  }
  return [...open.values()];
}

/**
 * True when nothing is in flight in the run but, with `pendingStep`, that one step: every workflow task, child
 * workflow and accepted update is closed, and so is every activity (or exactly one is open, of that step), so the
 * run is blocked at a wait point (a timer, a condition, a step being retried) or closed.
 */
function idle(events: HistoryEvent[], counts: Map<string, number>, pendingStep: string | undefined): boolean {
  const open = openActivities(events);
  const activitiesOk = pendingStep === undefined ? open.length === 0 : open.length === 1 && open[0]!.endsWith(`#${pendingStep}`);
  return (
    sum(counts, 'WORKFLOW_TASK_SCHEDULED') === sum(counts, 'WORKFLOW_TASK_COMPLETED', 'WORKFLOW_TASK_FAILED', 'WORKFLOW_TASK_TIMED_OUT') &&
    activitiesOk &&
    sum(counts, 'START_CHILD_WORKFLOW_EXECUTION_INITIATED') ===
      sum(
        counts,
        'CHILD_WORKFLOW_EXECUTION_COMPLETED',
        'CHILD_WORKFLOW_EXECUTION_FAILED',
        'CHILD_WORKFLOW_EXECUTION_CANCELED',
        'CHILD_WORKFLOW_EXECUTION_TIMED_OUT',
        'CHILD_WORKFLOW_EXECUTION_TERMINATED',
        'START_CHILD_WORKFLOW_EXECUTION_FAILED',
      ) &&
    sum(counts, 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED') === sum(counts, 'WORKFLOW_EXECUTION_UPDATE_COMPLETED')
  );
}

/**
 * Waits until `check` answers a value other than `false` and resolves with it; rejects with the last error, or a
 * timeout error, after `timeoutMs`. The test passes Vitest's poller, the bench p-retry.
 */
export type WaitUntil = <T>(check: () => Promise<T | false>, timeoutMs: number) => Promise<T>;

/** One run of a case, left at its wait point, with the history of its latest run. */
export interface RecordedRun {
  caseName: string;
  run: string;
  waitsAt: string;
  recorded: RecordedHistory;
}

/** Why a run did not reach its wait point: a failed workflow task or run, named with the engine's message. */
function failureOf(events: HistoryEvent[]): string | null {
  for (const e of events) {
    const failed = e.workflowTaskFailedEventAttributes ?? e.workflowExecutionFailedEventAttributes;
    if (failed) return failed.failure?.message ?? 'failed';
  }
  return null;
}

/** Drives one run of v1 to its wait point; answers the history of its latest run there. */
async function driveRun(client: Client, taskQueue: string, c: CorpusCase, run: CorpusCaseSpec['runs'][number], waitUntil: WaitUntil): Promise<RecordedRun> {
  const workflowId = `${c.name}-${run.name}-${randomUUID()}`;
  // Activities get 10 s per attempt (Skein's default is 5 minutes): on an overloaded machine the engine can hand a
  // task to a poll whose answer never reaches the worker, and the attempt then waits out its timeout. The options
  // travel as the run's invocation-level activity options (what a parent passes a child); they change no command.
  const handle: WorkflowHandle = await client.workflow.start(c.workflow, {
    taskQueue,
    workflowId,
    args: [run.input, { invocationActivityOptions: { startToCloseTimeout: '10 seconds' } }],
  });
  let events: HistoryEvent[] = [];
  for (const step of run.drive) {
    if ('until' in step) {
      let last = '(no history read yet)';
      events = await waitUntil(async () => {
        const history = await client.workflow.getHandle(workflowId).fetchHistory();
        const evs = history.events ?? [];
        const failure = failureOf(evs);
        if (failure) throw new Error(`case ${c.name}, run ${run.name}: the run failed before its wait point: ${failure}`);
        const counts = countEvents(evs);
        const continued = Boolean(evs[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId);
        const reached = Object.entries(step.until).every(([type, n]) => (type === 'continued' ? continued : (counts.get(type) ?? 0) >= Number(n)));
        last = JSON.stringify(Object.fromEntries(counts));
        return reached && idle(evs, counts, step.pendingStep) ? evs : false;
      }, 120_000).catch(async (err: unknown) => {
        const pending = (await handle.describe().catch(() => null))?.raw.pendingActivities?.map((a) => ({
          type: a.activityType?.name,
          attempt: a.attempt,
          state: a.state,
          lastFailure: a.lastFailure?.message,
        }));
        throw new Error(
          `case ${c.name}, run ${run.name}: wait point ${JSON.stringify(step.until)} not reached; the history holds ${last}; pending activities ${JSON.stringify(pending ?? [])}`,
          { cause: err },
        );
      });
    } else if ('signal' in step) await handle.signal(step.signal, ...step.args);
    else await handle.executeUpdate(step.update, { args: step.args });
  }
  // Recorded: the run has served its purpose; ended now, it costs the worker nothing while the others are driven,
  // and the shared engine keeps no open run of ours.
  await client.workflow
    .getHandle(workflowId)
    .terminate('versioning corpus: recorded')
    .catch(() => {});
  return { caseName: c.name, run: run.name, waitsAt: run.waitsAt, recorded: { workflowId, history: { events } } };
}

/** The replayer's verdict on a case, and on each of its runs (null: the history replays on v2). */
export interface ReplayVerdict {
  verdict: 'compatible' | 'incompatible';
  runs: { run: string; waitsAt: string; failure: string | null }[];
}

/** What `judgeCorpus` measured, in ms of wall time. */
export interface CorpusTimings {
  /** v1 worker started (validated, loaded, bundled) and v2 bundled, side by side. */
  prepareMs: number;
  /** Every run of every case driven to its wait point, all at once. */
  driveMs: number;
  /** Every history replayed against the v2 bundle. */
  replayMs: number;
}

/**
 * Judges every case by Temporal's replayer: v1 of all cases served by one worker on the engine at
 * `temporalAddress` (task queue `catalog`), every run driven to its wait point, concurrently, and every history
 * replayed against the v2 bundle. A case is `incompatible` when any of its histories fails to replay with a
 * nondeterminism error.
 * @throws Error when a run fails or misses its wait point, when a replay fails for another reason than
 *   nondeterminism (a corpus defect, not a verdict), or the worker's startup error (a project that does not validate).
 */
export async function judgeCorpus(options: {
  cases: CorpusCase[];
  repoRoot: string;
  temporalAddress: string;
  catalog: string;
  waitUntil: WaitUntil;
  /** Print a line as each run reaches its wait point (default false). */
  progress?: boolean;
}): Promise<{ verdicts: Map<string, ReplayVerdict>; timings: CorpusTimings }> {
  const { cases, repoRoot, temporalAddress, catalog, waitUntil } = options;
  const v1Dir = assembleProject(cases, 'v1', repoRoot);
  const v2Dir = assembleProject(cases, 'v2', repoRoot);
  let env: TestEnv | undefined;
  try {
    let t0 = performance.now();
    const logger = pino({ level: 'silent' });
    const [started, v2] = await Promise.all([
      createTestEnv({ projectDir: v1Dir, temporalAddress, catalog, logger }),
      prepareProject(v2Dir, { logger, traceDir: false }),
    ]);
    env = started;
    const prepareMs = performance.now() - t0;

    t0 = performance.now();
    const limit = pLimit(DRIVEN_AT_ONCE);
    const driveStart = performance.now();
    const drive = async (c: CorpusCase, run: CorpusCaseSpec['runs'][number]) => {
      const recorded = await driveRun(env!.client, catalog, c, run, waitUntil);
      if (options.progress) console.log(`${((performance.now() - driveStart) / 1000).toFixed(1)} s  ${c.name} ${run.name}: at ${run.waitsAt}`);
      return recorded;
    };
    const runs = await Promise.all(cases.flatMap((c) => c.runs.map((run) => limit(() => drive(c, run)))));
    const driveMs = performance.now() - t0;

    t0 = performance.now();
    const failures = await replayHistories(
      { code: v2.workflowCode },
      runs.map((r) => r.recorded),
    );
    const replayMs = performance.now() - t0;
    const other = failures.filter((f) => f.kind !== 'nondeterminism');
    if (other.length > 0)
      throw new Error(`replay failed for another reason than nondeterminism: ${other.map((f) => `${f.workflowId}: ${f.message}`).join('; ')}`);
    const byId = new Map(failures.map((f) => [f.workflowId, f.message]));
    const verdicts = new Map<string, ReplayVerdict>();
    for (const c of cases) {
      const mine = runs.filter((r) => r.caseName === c.name).map((r) => ({ run: r.run, waitsAt: r.waitsAt, failure: byId.get(r.recorded.workflowId) ?? null }));
      verdicts.set(c.name, { verdict: mine.some((r) => r.failure) ? 'incompatible' : 'compatible', runs: mine });
    }
    return { verdicts, timings: { prepareMs, driveMs, replayMs } };
  } finally {
    await env?.close();
    rmSync(v1Dir, { recursive: true, force: true });
    rmSync(v2Dir, { recursive: true, force: true });
  }
}

/** What the static check answers for one workflow: an error, an unprovable warning, information only, or nothing. */
export type StaticVerdict = 'compatible' | 'incompatible' | 'unprovable' | 'information';

/** The static side's answer on one case: its verdict and the findings' one-line messages. */
export interface StaticJudgement {
  verdict: StaticVerdict;
  messages: string[];
}

/**
 * Judges every case statically: `compareVersions({ dir: v2, baseline: v1 })` of `@skein/validator`, the findings
 * on the case's workflow read as `incompatible` (a `versioning/incompatible-change` error), `unprovable` (a
 * `versioning/unprovable-change` warning) or `compatible` (none). Pinned workflows are never reported.
 * @throws BaselineError (from the validator) when a case's v1 is not a project of the same name as its v2.
 */
export async function staticVerdicts(cases: CorpusCase[]): Promise<Map<string, StaticJudgement>> {
  const out = new Map<string, StaticJudgement>();
  for (const c of cases) {
    const findings = (await compareVersions({ dir: path.join(c.dir, 'v2'), baseline: path.join(c.dir, 'v1') })).filter(
      (f) => (f.data as { workflow?: string } | undefined)?.workflow === c.workflow,
    );
    const verdict: StaticVerdict = findings.some((f) => f.ruleId === 'versioning/incompatible-change')
      ? 'incompatible'
      : findings.some((f) => f.ruleId === 'versioning/unprovable-change')
        ? 'unprovable'
        : findings.length > 0
          ? 'information'
          : 'compatible';
    out.set(c.name, { verdict, messages: findings.map((f) => `${f.ruleId}: ${f.message}`) });
  }
  return out;
}

/** One line of the agreement table. */
export interface AgreementRow {
  case: string;
  change: string;
  behavior: CorpusCase['versioningBehavior'];
  /** The case's runs (named by their wait point: `at-timer`, `at-signal`, `at-charge`, …), `, `-separated. */
  waitsAt: string;
  replayer: ReplayVerdict['verdict'];
  static: StaticVerdict;
  /**
   * `agree`, `disagree`, `unprovable` (the static side declined, the allowed answer for a partial shape), or
   * `pinned` (runs finish on their own build: the static side must not call the change an error, whatever the
   * replayer says).
   */
  outcome: 'agree' | 'disagree' | 'unprovable' | 'pinned' | 'pinned-error';
}

/** The counts under the agreement table. */
export interface AgreementCounts {
  cases: number;
  agree: number;
  disagree: number;
  unprovable: number;
  /** Incompatible changes (by the replayer) the static side called compatible: must be 0. */
  missedIncompatible: number;
  /** Compatible changes (by the replayer) the static side called incompatible. */
  falseAlarms: number;
  pinned: number;
}

/** Compares the static verdict of each case with the replayer's; see `AgreementRow.outcome`. */
export function agreement(
  cases: CorpusCase[],
  replayer: Map<string, ReplayVerdict>,
  statics: Map<string, StaticJudgement>,
): { rows: AgreementRow[]; counts: AgreementCounts } {
  const rows = cases.map((c): AgreementRow => {
    const truth = replayer.get(c.name)!.verdict;
    const verdict = statics.get(c.name)!.verdict;
    let outcome: AgreementRow['outcome'];
    if (c.versioningBehavior === 'pinned') outcome = verdict === 'incompatible' ? 'pinned-error' : 'pinned';
    else if (verdict === 'unprovable') outcome = 'unprovable';
    else outcome = verdict === truth ? 'agree' : 'disagree';
    const waitsAt = c.runs.map((r) => r.name).join(', ');
    return { case: c.name, change: c.change, behavior: c.versioningBehavior, waitsAt, replayer: truth, static: verdict, outcome };
  });
  const auto = rows.filter((r) => r.behavior !== 'pinned');
  const counts: AgreementCounts = {
    cases: rows.length,
    agree: rows.filter((r) => r.outcome === 'agree').length,
    disagree: rows.filter((r) => r.outcome === 'disagree' || r.outcome === 'pinned-error').length,
    unprovable: rows.filter((r) => r.outcome === 'unprovable').length,
    missedIncompatible: auto.filter((r) => r.replayer === 'incompatible' && r.static === 'compatible').length,
    falseAlarms: auto.filter((r) => r.replayer === 'compatible' && r.static === 'incompatible').length,
    pinned: rows.filter((r) => r.behavior === 'pinned').length,
  };
  return { rows, counts };
}

/** The agreement table as Markdown (the bench prints it, the docs hold it), with its counts under it. */
export function formatAgreement({ rows, counts }: { rows: AgreementRow[]; counts: AgreementCounts }): string {
  const lines = [
    '| case | change | runs | replayer | static | agreement |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| \`${r.case}\` | ${r.change}${r.behavior === 'pinned' ? ' (pinned)' : ''} | ${r.waitsAt} | ${r.replayer} | ${r.static} | ${r.outcome} |`,
    ),
    '',
    `${counts.cases} cases: ${counts.agree} agree, ${counts.disagree} disagree, ${counts.unprovable} unprovable ` +
      `(${((100 * counts.unprovable) / counts.cases).toFixed(1)} %, at most 10 %), ${counts.pinned} pinned; ` +
      `incompatible called compatible: ${counts.missedIncompatible}; compatible called incompatible: ${counts.falseAlarms}.`,
  ];
  return lines.join('\n');
}
