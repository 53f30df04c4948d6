/**
 * `@skein/names`: the names and identifiers every Skein package agrees on: the authoring API, the analysis, the
 * worker and the API. No dependencies and no side effects, so the analysis reads them without loading the authoring
 * runtime.
 */

/** Workflow, step, evaluator and alias names: `^[A-Za-z_][A-Za-z0-9_]*$`. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The reserved workflow type of the per-catalog registry workflow. */
export const CATALOG_WORKFLOW_TYPE = '$catalog';

/**
 * Signal a worker sends to `$catalog` with its Temporal identity when it stops cleanly, so the workers still
 * serving the catalog know its pollers (which the engine keeps listing for a while) are gone.
 */
export const CATALOG_WORKER_STOPPED_SIGNAL = 'workerStopped';

/** Memo key of `$catalog` listing the identities of the workers that stopped cleanly (newest 100). */
export const CATALOG_STOPPED_MEMO_KEY = 'stoppedWorkers';

/** The package.json key of the framework's namespace. */
export const PACKAGE_JSON_KEY = 'skein';

/** Export conditions that select a workflow-safe entry (package rule 12, docs/package-rules.md), in order of preference. */
export const WORKFLOW_BUNDLE_CONDITIONS = ['skein-workflow-bundle', 'output-workflow-bundle'] as const;

/**
 * The conditions the workflow bundler resolves `exports` and `imports` with: the workflow-bundle ones, then webpack's
 * own set for an ES module bundle. Of a conditions object, the first key (in the object's order) that is one of them
 * wins, as in Node.
 */
export const BUNDLE_CONDITION_NAMES = [...WORKFLOW_BUNDLE_CONDITIONS, 'webpack', 'import', 'module', 'browser', 'default'] as const;

/** Default catalog (task queue) when neither the request nor `SKEIN_CATALOG` names one. */
export const DEFAULT_CATALOG = 'main';

/**
 * The activity type of a step, evaluator or shared activity called from a workflow:
 * `<workflowName>#<activityName>` (package rule 10, docs/package-rules.md).
 */
export function activityType(workflowName: string, activityName: string): string {
  return `${workflowName}#${activityName}`;
}

/** The workflow id of the `$catalog` registry workflow of a catalog. */
export function catalogWorkflowId(catalog: string): string {
  return `${CATALOG_WORKFLOW_TYPE}:${catalog}`;
}

/**
 * Task queue of Skein's record-keeping executions (a build's catalog document, a build's liveness lease): no worker
 * polls it, so these executions never run code; they exist for their memo and their timeout.
 */
export const RECORDS_TASK_QUEUE = 'skein-records';

/** Workflow type of the execution holding one build's catalog document in its memo (`memo.catalog`). */
export const CATALOG_VERSION_WORKFLOW_TYPE = '$catalogVersion';

/** Workflow id of the execution holding the catalog document of build `buildId` of `catalog`. */
export function catalogVersionWorkflowId(catalog: string, buildId: string): string {
  return `${CATALOG_WORKFLOW_TYPE}:${catalog}@${buildId}`;
}

/**
 * Workflow type of a liveness lease: an execution that times out unless a live worker of the build renews it
 * (see `CATALOG_LEASE_TTL_MS`).
 */
export const CATALOG_LEASE_WORKFLOW_TYPE = '$lease';

/** Workflow id of the liveness lease of build `buildId` of `catalog`. */
export function catalogLeaseWorkflowId(catalog: string, buildId: string): string {
  return `${CATALOG_LEASE_WORKFLOW_TYPE}:${catalog}@${buildId}`;
}

/**
 * Whether a described execution (the Temporal client's `describe()`) under a lease's id is a worker's live lease:
 * running, of the lease's type, on the records task queue. Anything else under that id, whatever started it, proves
 * nothing about a live worker.
 */
export function isLiveLease(execution: { status: { name: string }; type: string; taskQueue: string }): boolean {
  return execution.status.name === 'RUNNING' && execution.type === CATALOG_LEASE_WORKFLOW_TYPE && execution.taskQueue === RECORDS_TASK_QUEUE;
}

/** How long a lease lives without renewal, ms: a catalog whose workers all died stops answering as served within this time (plus the API's 2 s cache). */
export const CATALOG_LEASE_TTL_MS = 10_000;

/** How often each worker renews its build's lease when it is older than this, ms. */
export const CATALOG_LEASE_RENEW_MS = 3_000;

/**
 * Memo key of a build's lease listing the local trace folders of its live workers: `[{ dir, at }]`, `dir` an
 * absolute folder, `at` when (epoch ms) its worker last wrote it. Workers write it; the API reads it.
 */
export const CATALOG_LEASE_TRACE_DIRS_MEMO_KEY = 'traceDirs';

/** How long a folder listed in a lease stays listed without its worker writing it again, ms (several renewals). */
export const CATALOG_LEASE_TRACE_DIR_TTL_MS = 30_000;

/**
 * Activity type of the built-in HTTP request activity behind `sendHttpRequest` and
 * `sendPostRequestAndAwaitWebhook` (the seed system's own name); every worker registers it on its catalog.
 */
export const HTTP_REQUEST_ACTIVITY_TYPE = '__internal#sendHttpRequest';

/** Activity summary marking the request of `sendPostRequestAndAwaitWebhook`: its trace opens a `webhook` span after it. */
export const WEBHOOK_REQUEST_SUMMARY = 'webhook';

/** Signal that resumes a run waiting in `sendPostRequestAndAwaitWebhook` (`POST /workflow/{id}/feedback` sends it). */
export const WEBHOOK_RESUME_SIGNAL = 'resume';
