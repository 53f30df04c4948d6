/**
 * `skein dev` serves every reload under one build ID, so a run started before an edit continues on the edited code,
 * whatever its versioning behaviour. An edit that changes the commands a workflow issues before a point where a run
 * can wait (a step inserted before a `sleep`, a step renamed) makes such runs fail at their next workflow task with
 * Temporal's nondeterminism error, long after the save. This keeps the command shapes of the code being served
 * (`@skein/discovery`'s static derivation, the one `skein build --baseline` compares) and, after each reload, names
 * the edits that break runs started before them, as the reload happens.
 */
import path from 'node:path';
import { deriveCommandShapes, type ShapeSet } from '@skein/discovery';
import { compareWithShapes } from '@skein/validator';

/** The command shapes of the code `skein dev` serves, compared at each reload. */
export class ReloadVersioning {
  #served: Promise<ShapeSet | undefined>;

  /** Starts deriving the shapes of the code at `projectDir` as it is now (the code the first worker serves). */
  constructor(private readonly projectDir: string) {
    this.#served = deriveCommandShapes(projectDir).catch(() => undefined);
  }

  /**
   * After a reload: compares the shapes of the code served until now with the code at `projectDir` now, keeps the
   * new ones, and returns one line per incompatible change (`versioning/incompatible-change` with every workflow
   * judged as auto-upgrade): the workflow, the new command and where it is, the command runs started before the edit
   * recorded there, and the fix. Empty when nothing breaks such runs, or when the shapes cannot be derived (the
   * reload's own validation reports why). Never throws.
   */
  async afterReload(): Promise<string[]> {
    const served = await this.#served;
    const next = served ? compareWithShapes(this.projectDir, served, { everyRunMovesOn: true }).catch(() => undefined) : Promise.resolve(undefined);
    this.#served = next.then((r) => r?.current ?? deriveCommandShapes(this.projectDir).catch(() => undefined));
    const result = await next;
    if (!result) return [];
    return result.findings
      .filter((f) => f.ruleId === 'versioning/incompatible-change' && f.data)
      .map((f) => {
        const d = f.data as Record<string, string>;
        const at = `${path.relative(this.projectDir, f.file) || f.file}:${f.line}:${f.column}`;
        return (
          `workflow "${d.workflow}": this edit issues ${d.newCommand} at ${at} where runs started before it recorded ${d.oldCommand}; ` +
          `those runs fail at their next workflow task (a nondeterminism error). Guard the change with patched('${d.patchId}'), or let them finish first.`
        );
      });
  }
}
