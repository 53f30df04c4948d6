/**
 * `skein dev` serves every reload under one build ID, so a run started before an edit continues on the edited code,
 * whatever its versioning behaviour. An edit that changes the commands a workflow issues before a point where a run
 * can wait (a step inserted before a `sleep`, a step renamed) makes such runs fail at their next workflow task with
 * Temporal's nondeterminism error, long after the save. This keeps the command shapes of the code served by each
 * reload (`@skein/discovery`'s static derivation, the one `skein build --baseline` compares) and, after each reload,
 * names the edits that break the runs open now.
 *
 * A run's history was last replayed by the code that completed its last workflow task, so the edit is compared with
 * that code's shapes, for the workflows that have such a run: an edit guarded with `patched()` is judged against the
 * code the waiting runs recorded, not against the reload before it, and an edit of a workflow with no open run says
 * nothing. Without a way to read the open runs (or when the engine cannot be read), the edit is compared with the
 * code served until now, for every workflow.
 */
import path from 'node:path';
import { deriveCommandShapes, type ShapeSet } from '@skein/discovery';
import { compareWithShapes, type ValidatorDiagnostic } from '@skein/validator';

/** One open run: its workflow type, and when its last workflow task completed (ms since the epoch; null: none yet; undefined: not known). */
export interface OpenRun {
  workflowType: string;
  lastTaskCompletedAt: number | null | undefined;
}

/** The code one reload served: its command shapes, and since when (ms since the epoch). */
interface ServedVersion {
  shapes: Promise<ShapeSet | undefined>;
  since: number;
}

/** The command shapes of the code `skein dev` serves, compared at each reload. */
export class ReloadVersioning {
  /** Oldest first; the last is the code served until the reload being judged. */
  #versions: ServedVersion[];

  /**
   * Starts deriving the shapes of the code at `projectDir` as it is now (the code the first worker serves).
   * @param openRuns reads the runs open on the served task queue (see open-runs.ts); without it every edit that
   *   breaks a run started before it is named, open runs or not
   */
  constructor(
    private readonly projectDir: string,
    private readonly openRuns?: () => Promise<OpenRun[]>,
  ) {
    this.#versions = [{ shapes: deriveCommandShapes(projectDir).catch(() => undefined), since: Number.NEGATIVE_INFINITY }];
  }

  /**
   * After a reload whose worker serves since `servedSince` (ms since the epoch, default now): compares the code at
   * `projectDir` now with the code each open run last ran on (see the header), keeps the new shapes, and returns one
   * line per incompatible change (`versioning/incompatible-change` with every workflow judged as auto-upgrade): the
   * workflow, the new command and where it is, the command the runs recorded there, how many runs, and the fix.
   * Empty when nothing breaks an open run, or when the shapes cannot be derived (the reload's own validation reports
   * why); and one line per workflow the new code no longer has while runs of it are open. Never throws.
   */
  async afterReload(servedSince = Date.now()): Promise<string[]> {
    const latest = this.#versions.at(-1) as ServedVersion;
    let runs: OpenRun[] | undefined;
    try {
      runs = this.openRuns ? await this.openRuns() : undefined;
    } catch {
      runs = undefined;
    }
    // The versions to compare with, each with the open runs (by workflow) whose last task it completed; `undefined`
    // runs: every workflow, counts unknown.
    const judged = new Map<ServedVersion, Map<string, number> | undefined>();
    if (runs === undefined) judged.set(latest, undefined);
    else {
      for (const run of runs) {
        if (run.lastTaskCompletedAt === null) continue; // no command recorded yet
        const at = run.lastTaskCompletedAt ?? servedSince - 1; // not found: judged against the code served until now
        if (at >= servedSince) continue; // already ran on the new code
        const version = this.#versionAt(at);
        const counts = judged.get(version) ?? new Map<string, number>();
        counts.set(run.workflowType, (counts.get(run.workflowType) ?? 0) + 1);
        judged.set(version, counts);
      }
    }
    const lines = new Set<string>();
    let current: ShapeSet | undefined;
    for (const [version, counts] of judged) {
      const served = await version.shapes;
      const result = served ? await compareWithShapes(this.projectDir, served, { everyRunMovesOn: true }).catch(() => undefined) : undefined;
      if (!result) continue;
      current ??= result.current;
      for (const finding of result.findings) {
        if (finding.ruleId !== 'versioning/incompatible-change' || !finding.data) continue;
        const workflow = finding.data.workflow as string;
        if (counts && !counts.has(workflow)) continue;
        lines.add(this.#line(finding, counts?.get(workflow)));
      }
    }
    const next: ServedVersion = {
      shapes: current ? Promise.resolve(current) : deriveCommandShapes(this.projectDir).catch(() => undefined),
      since: servedSince,
    };
    // Open runs of a workflow the new code no longer has (a folder deleted, a workflow renamed) wait at their next
    // workflow task until it comes back.
    const served = runs && (await next.shapes);
    if (runs && served) {
      const missing = new Map<string, number>();
      for (const run of runs) if (!Object.hasOwn(served.workflows, run.workflowType)) missing.set(run.workflowType, (missing.get(run.workflowType) ?? 0) + 1);
      for (const [workflow, count] of missing) {
        lines.add(
          `workflow "${workflow}": the code no longer has it (deleted or renamed?), and ${count === 1 ? 'its open run waits' : `its ${count} open runs wait`} ` +
            `at the next workflow task until it comes back; restore it, or terminate ${count === 1 ? 'that run' : 'those runs'} (skein workflow terminate <id>).`,
        );
      }
    }
    // Versions no open run last ran on are never needed again: a run's last task only moves forward.
    this.#versions = runs === undefined ? [next] : [...this.#versions.filter((v) => judged.has(v)), next];
    return [...lines];
  }

  /** The version served at `at` (ms since the epoch). */
  #versionAt(at: number): ServedVersion {
    let found = this.#versions[0] as ServedVersion;
    for (const v of this.#versions) if (v.since <= at) found = v;
    return found;
  }

  #line(finding: ValidatorDiagnostic, runs: number | undefined): string {
    const d = finding.data as Record<string, string>;
    const at = `${path.relative(this.projectDir, finding.file) || finding.file}:${finding.line}:${finding.column}`;
    const who = runs === undefined ? 'runs started before it' : runs === 1 ? 'its open run' : `its ${runs} open runs`;
    const [fail, them] = runs === 1 ? ['that run fails at its', 'it'] : ['those runs fail at their', 'them'];
    return (
      `workflow "${d.workflow}": this edit issues ${d.newCommand} at ${at} where ${who} recorded ${d.oldCommand}; ` +
      `${fail} next workflow task (a nondeterminism error). Guard the change with patched('${d.patchId}'), or let ${them} finish first.`
    );
  }
}
