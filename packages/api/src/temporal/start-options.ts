/**
 * How a start (`POST /workflow/start`, `POST /workflow/run`) treats a workflow id already in use, and the
 * `Idempotency-Key` header. Each option is one of Temporal's own start options:
 *
 * - `onConflict` (a RUNNING execution holds the id) → Temporal's workflow id conflict policy;
 * - `onClosed` (only CLOSED executions hold the id) → Temporal's workflow id reuse policy;
 * - `Idempotency-Key` → an execution id derived from the catalog, the workflow name (as sent) and the key, with
 *   conflict policy `use-existing` and reuse policy `reject`, so a repeat of the request finds the execution the
 *   first one started, running or closed, as long as the namespace retains it;
 * - `startDelay` → Temporal's `startDelay`.
 */
import { createHash } from 'node:crypto';
import type { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { ApiError } from '../errors.js';

/** Values of `onConflict`: what a start does when a running execution holds the workflow id. */
export const ON_CONFLICT = ['fail', 'use-existing', 'terminate-existing'] as const;
/** Values of `onClosed`: whether a start may reuse the id of closed executions. */
export const ON_CLOSED = ['allow', 'allow-failed-only', 'reject'] as const;

/** One of {@link ON_CONFLICT}. */
export type OnConflict = (typeof ON_CONFLICT)[number];
/** One of {@link ON_CLOSED}. */
export type OnClosed = (typeof ON_CLOSED)[number];

const CONFLICT_POLICY: Record<OnConflict, WorkflowIdConflictPolicy> = {
  fail: 'FAIL',
  'use-existing': 'USE_EXISTING',
  'terminate-existing': 'TERMINATE_EXISTING',
};

const REUSE_POLICY: Record<OnClosed, WorkflowIdReusePolicy> = {
  allow: 'ALLOW_DUPLICATE',
  'allow-failed-only': 'ALLOW_DUPLICATE_FAILED_ONLY',
  reject: 'REJECT_DUPLICATE',
};

/** Longest `Idempotency-Key`, in bytes as sent. */
export const MAX_IDEMPOTENCY_KEY_BYTES = 200;

/** The start's options as the request gave them. */
export interface StartPolicyInput {
  onConflict?: OnConflict | undefined;
  onClosed?: OnClosed | undefined;
  idempotencyKey?: string | undefined;
}

/** The policies a start passes to Temporal, and whether a closed execution holding the id answers the start. */
export interface StartPolicy {
  onConflict: OnConflict;
  onClosed: OnClosed;
  workflowIdConflictPolicy: WorkflowIdConflictPolicy;
  workflowIdReusePolicy: WorkflowIdReusePolicy;
  /** True with an `Idempotency-Key`: the execution holding the id, running or closed, is the answer. */
  idempotent: boolean;
}

/**
 * The policies of a start: `fail` and `allow` by default (a running execution holding the id is a 409, a closed one
 * is replaced); with an `Idempotency-Key`, `use-existing` and `reject`.
 * @throws ApiError `ValidationError` (400) when an `Idempotency-Key` comes with an `onConflict` other than
 *   `use-existing` or an `onClosed` other than `reject` (the key needs exactly those).
 */
export function startPolicy(req: StartPolicyInput): StartPolicy {
  const idempotent = req.idempotencyKey !== undefined;
  if (idempotent) {
    const issues = [];
    if (req.onConflict !== undefined && req.onConflict !== 'use-existing') {
      issues.push({ code: 'idempotency_conflict', path: ['body', 'onConflict'], message: 'With an Idempotency-Key, onConflict is use-existing' });
    }
    if (req.onClosed !== undefined && req.onClosed !== 'reject') {
      issues.push({ code: 'idempotency_conflict', path: ['body', 'onClosed'], message: 'With an Idempotency-Key, onClosed is reject' });
    }
    if (issues.length > 0) throw new ApiError('ValidationError', { message: 'An Idempotency-Key fixes onConflict and onClosed', issues });
  }
  const onConflict = req.onConflict ?? (idempotent ? 'use-existing' : 'fail');
  const onClosed = req.onClosed ?? (idempotent ? 'reject' : 'allow');
  return {
    onConflict,
    onClosed,
    workflowIdConflictPolicy: CONFLICT_POLICY[onConflict],
    workflowIdReusePolicy: REUSE_POLICY[onClosed],
    idempotent,
  };
}

/**
 * Checks an `Idempotency-Key` header value: 1 to {@link MAX_IDEMPOTENCY_KEY_BYTES} bytes as sent, no C0 control
 * character and no DEL. (Node reads header bytes as Latin-1, so the byte count is that string's length; any key,
 * ASCII or not, gives the same string, so the same execution id, on every repeat.)
 * @returns an error message, or `undefined` when the key is acceptable.
 */
export function idempotencyKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'Must not be empty';
  if (Buffer.byteLength(key, 'latin1') > MAX_IDEMPOTENCY_KEY_BYTES) return `Must be at most ${MAX_IDEMPOTENCY_KEY_BYTES} bytes`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'Must not contain control characters';
  return undefined;
}

/**
 * The execution id a start with an `Idempotency-Key` and no `workflowId` gets: `idem-<workflowName>-<hash>`,
 * the hash (SHA-256, 32 hex digits) taken over the catalog, the workflow name as the request sent it and the key.
 * The same three give the same id; the prefix keeps it clear of Skein's reserved `$` records.
 */
export function idempotentWorkflowId(catalog: string, workflowName: string, key: string): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([catalog, workflowName, key]))
    .digest('hex')
    .slice(0, 32);
  return `idem-${workflowName}-${hash}`;
}
