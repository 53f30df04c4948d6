/**
 * `executeInParallel` (issue "Workflow helpers"): pure promise scheduling, deterministic in Temporal's workflow
 * sandbox (jobs start in index order; completion order comes from the engine's replayed history).
 */

/** One job's outcome, in job order. `error` is what the job threw (for a step: Temporal's `ActivityFailure`). */
export type ParallelResult<T> = { ok: true; result: T } | { ok: false; error: unknown };

/** Arguments of `executeInParallel`. */
export interface ParallelOptions<T> {
  /** Functions returning a promise (or a value): typically `() => someStep(input)` or `() => childWorkflow(input)`. */
  jobs: ReadonlyArray<() => Promise<T> | T>;
  /** At most this many jobs in flight; a positive integer. Default: all at once. */
  concurrency?: number;
}

/** `Array.isArray` for a read-only job list (it narrows a `ReadonlyArray` to `any[]`). */
const isJobList = <T>(jobs: ParallelOptions<T>['jobs'] | undefined): jobs is ParallelOptions<T>['jobs'] => Array.isArray(jobs);

/**
 * Runs `jobs` with at most `concurrency` in flight and resolves, once every job has settled, to one
 * `{ ok: true, result } | { ok: false, error }` per job in job order. Never rejects because a job failed.
 * @throws TypeError (as a rejected promise, before any job starts) when `jobs` is not an array, a job is not a
 *   function, or `concurrency` is not a positive integer; in workflow code this fails the run with that name.
 */
export async function executeInParallel<T>(options: ParallelOptions<T>): Promise<Array<ParallelResult<T>>> {
  const { jobs, concurrency } = (options ?? {}) as Partial<ParallelOptions<T>>;
  if (!isJobList(jobs)) throw new TypeError('executeInParallel(): `jobs` must be an array of functions');
  jobs.forEach((job, i) => {
    if (typeof job !== 'function') {
      throw new TypeError(`executeInParallel(): jobs[${i}] is not a function (got ${job === null ? 'null' : typeof job}); pass () => step(input)`);
    }
  });
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    throw new TypeError(`executeInParallel(): concurrency must be a positive integer (got ${String(concurrency)})`);
  }
  const results = new Array<ParallelResult<T>>(jobs.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      try {
        results[i] = { ok: true, result: await jobs[i]!() };
      } catch (error) {
        results[i] = { ok: false, error };
      }
    }
  };
  const lanes = Math.min(concurrency ?? jobs.length, jobs.length);
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
}
