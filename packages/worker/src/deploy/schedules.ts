/**
 * Declared schedules (`workflow({ schedules })`) follow the current build: when a build's catalog document becomes
 * the catalog's (a worker promoting its build, `skein deploy promote` or `rollback`, every `skein dev` reload), the
 * engine's declared schedules of that catalog are created, changed or deleted to match it. Only schedules marked
 * as declared (memo `skeinDeclared`) are ever touched; those created through the API are left alone.
 */
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client, type ScheduleOptions } from '@temporalio/client';
import { DECLARED_SCHEDULE_MEMO_KEY, SCHEDULE_TIMES_MEMO_KEY, declaredScheduleId, temporalScheduleTimes } from '@skein/settings';
import type { DeclaredSchedule } from '../host/load.js';

/** What a sync reads of a catalog document: its catalog and each workflow's declared schedules. */
export interface DeclaringDocument {
  catalog: string;
  workflows: ReadonlyArray<{ name: string; schedules?: DeclaredSchedule[] }>;
}

/** What one sync did, by schedule id. `kept` are ids taken by a schedule that is not declared (left alone). */
export interface ScheduleSyncReport {
  created: string[];
  updated: string[];
  deleted: string[];
  kept: string[];
}

/** The mark a declared schedule carries in its memo. */
interface DeclaredMark {
  catalog: string;
  workflowName: string;
  id: string;
}

function markOf(memo: Record<string, unknown> | undefined): DeclaredMark | undefined {
  const mark = memo?.[DECLARED_SCHEDULE_MEMO_KEY] as Partial<DeclaredMark> | undefined;
  return typeof mark?.catalog === 'string' ? (mark as DeclaredMark) : undefined;
}

/** The schedule options of each schedule `doc` declares. */
export function declaredScheduleOptions(doc: DeclaringDocument): ScheduleOptions[] {
  return doc.workflows.flatMap((wf) =>
    (wf.schedules ?? []).map((s) => {
      const scheduleId = declaredScheduleId(doc.catalog, wf.name, s.id);
      const mark: DeclaredMark = { catalog: doc.catalog, workflowName: wf.name, id: s.id };
      return {
        scheduleId,
        spec: temporalScheduleTimes(s),
        action: {
          type: 'startWorkflow' as const,
          workflowType: wf.name,
          taskQueue: doc.catalog,
          workflowId: scheduleId,
          args: [s.input ?? null],
          memo: { [SCHEDULE_TIMES_MEMO_KEY]: { ...(s.cron ? { cron: s.cron } : {}), ...(s.every ? { every: s.every } : {}) } },
        },
        policies: { overlap: 'SKIP' as const },
        memo: { [DECLARED_SCHEDULE_MEMO_KEY]: mark },
      };
    }),
  );
}

/**
 * Makes the engine's declared schedules of `doc.catalog` match `doc`: creates the missing, rewrites the present
 * (keeping whether an operator paused one, and its note), deletes those the document no longer declares. A
 * schedule id taken by a schedule that is not declared is reported as `kept` and not touched.
 * The engine lists schedules from its visibility store: one created moments before may be missed by the deletion pass
 * of a sync that follows at once (it is deleted by the next one).
 * @throws the engine's error (what was done before it stays done; the next sync completes it).
 */
export async function syncDeclaredSchedules(client: Client, doc: DeclaringDocument): Promise<ScheduleSyncReport> {
  const report: ScheduleSyncReport = { created: [], updated: [], deleted: [], kept: [] };
  const wanted = declaredScheduleOptions(doc);
  for (const options of wanted) {
    try {
      await client.schedule.create(options);
      report.created.push(options.scheduleId);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const handle = client.schedule.getHandle(options.scheduleId);
      if (!markOf((await handle.describe()).memo)) {
        report.kept.push(options.scheduleId);
        continue;
      }
      const { scheduleId: _id, memo: _memo, state: _state, ...rest } = options;
      await handle.update((previous) => ({ ...rest, state: { paused: previous.state.paused, note: previous.state.note } }));
      report.updated.push(options.scheduleId);
    }
  }
  const keep = new Set(wanted.map((o) => o.scheduleId));
  for await (const summary of client.schedule.list()) {
    const mark = markOf(summary.memo);
    if (!mark || mark.catalog !== doc.catalog || keep.has(summary.scheduleId)) continue;
    try {
      await client.schedule.getHandle(summary.scheduleId).delete();
      report.deleted.push(summary.scheduleId);
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  return report;
}
