/**
 * `executeInParallel` (issue "Workflow helpers"): pure promise scheduling, deterministic in Temporal's workflow
 * sandbox (jobs start in index order; completion order comes from the engine's replayed history).
 */

import { NON_ERROR_THROWN, nonErrorThrownMessage } from './errors.js';

/**
 * One job's outcome, in job order; `index` is the job's position in `jobs`. `error` is what the job threw (for a
 * step: Temporal's `ActivityFailure`; for a child workflow: `ChildWorkflowFailure`). A job that throws something
 * other than an `Error` (a string, a plain object) gets an `Error` named `NonErrorThrownError` whose `cause` is the
 * value thrown, so `error.message` is always there.
 */
export type ParallelResult<T> = { ok: true; result: T; index: number } | { ok: false; error: Error; index: number };

/** The seed system's name of `ParallelResult`. */
export type ParallelJobResult<T> = ParallelResult<T>;

/** `Array.isArray` for a read-only job list (it narrows a `ReadonlyArray` to `any[]`). */
const isJobList = <T>(jobs: ParallelOptions<T>['jobs'] | undefined): jobs is ParallelOptions<T>['jobs'] => Array.isArray(jobs);

/** A list of jobs: functions of no argument returning a promise or a value. */
export type ParallelJobs = ReadonlyArray<() => unknown>;

/**
 * The outcomes of a job list, position by position: job `i` returning `Promise<R>` (or `R`) gives
 * `ParallelResult<R>` at `i`, so a tuple of jobs of mixed types keeps each one's type.
 */
export type ParallelResults<Jobs extends ParallelJobs> = { -readonly [K in keyof Jobs]: Jobs[K] extends () => infer R ? ParallelResult<Awaited<R>> : never };

/** Arguments of `executeInParallel` typed by the job list itself (the form TypeScript infers from `jobs: [...]`). */
export interface ParallelJobOptions<Jobs extends ParallelJobs> {
  /** Functions returning a promise (or a value): typically `() => someStep(input)` or `() => childWorkflow(input)`. */
  jobs: Jobs;
  /** At most this many jobs in flight; a positive integer, or `Infinity`. Default: all at once. */
  concurrency?: number;
  /** Called with each job's outcome as it settles (in completion order); an error it throws rejects the call. */
  onJobCompleted?: (result: ParallelResults<Jobs>[number]) => void;
}

/** Arguments of `executeInParallel` with one result type `T` for every job (`executeInParallel<T>({ jobs })`). */
export type ParallelOptions<T> = ParallelJobOptions<ReadonlyArray<() => Promise<T> | T>>;

/**
 * Runs `jobs` with at most `concurrency` in flight and resolves, once every job has settled, to one
 * `{ ok: true, result, index } | { ok: false, error, index }` per job in job order. Never rejects because a job
 * failed. Typed position by position from the job list (`ParallelResults`), or with one result type for every job
 * when it is given explicitly: `executeInParallel<Report>({ jobs })`.
 * @throws TypeError (as a rejected promise, before any job starts) when `jobs` is not an array, a job is not a
 *   function, `concurrency` is not a positive integer or `Infinity`, or `onJobCompleted` is not a function; in
 *   workflow code this fails the run with that name.
 */
export async function executeInParallel<const Jobs extends ParallelJobs>(options: ParallelJobOptions<Jobs>): Promise<ParallelResults<Jobs>>;
export async function executeInParallel<T>(options: ParallelOptions<T>): Promise<Array<ParallelResult<T>>>;
export async function executeInParallel<T>(options: ParallelOptions<T>): Promise<Array<ParallelResult<T>>> {
  const { jobs, concurrency, onJobCompleted } = (options ?? {}) as Partial<ParallelOptions<T>>;
  if (!isJobList(jobs)) throw new TypeError('executeInParallel(): `jobs` must be an array of functions');
  jobs.forEach((job, i) => {
    if (typeof job !== 'function') {
      throw new TypeError(`executeInParallel(): jobs[${i}] is not a function (got ${job === null ? 'null' : typeof job}); pass () => step(input)`);
    }
  });
  if (concurrency !== undefined && concurrency !== Infinity && !(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new TypeError(`executeInParallel(): concurrency must be a positive integer or Infinity (got ${String(concurrency)})`);
  }
  if (onJobCompleted !== undefined && typeof onJobCompleted !== 'function') throw new TypeError('executeInParallel(): onJobCompleted must be a function');
  const results = new Array<ParallelResult<T>>(jobs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      try {
        results[i] = { ok: true, result: await jobs[i]!(), index: i };
      } catch (error) {
        results[i] = { ok: false, error: asError(error, i), index: i };
      }
      // A job's awaited value is its result: `T` here is what the jobs resolve to.
      onJobCompleted?.(results[i] as ParallelResult<Awaited<T>>);
    }
  };
  const lanes = Math.min(concurrency ?? jobs.length, jobs.length);
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}

/** What a job threw, as an `Error`: an `Error` as it is, anything else wrapped (`NonErrorThrownError`, the value as `cause`). */
function asError(thrown: unknown, index: number): Error {
  if (thrown instanceof Error) return thrown;
  const error = new Error(nonErrorThrownMessage(`jobs[${index}]`, thrown), { cause: thrown });
  error.name = NON_ERROR_THROWN;
  return error;
}
