import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkflowEntry } from '@skein/discovery';
import type { ValidationReport } from '@skein/validator';
import { atomicWrite, type FileDigests } from './file-digests.js';
import { sameAnswers, type Observation } from './answers.js';

/** The stored validation outcome: the report, and every file-system answer it was computed from. */
interface ValidationRecord {
  /** Validator/discovery code and the project root validated (`toolFingerprint` + root). */
  key: string;
  observations: Observation[];
  report: ValidationReport;
  /**
   * Each workflow's `activityTypes` (hundreds of `<workflow>#<activity>` strings per workflow on a large
   * catalog, most of the report's size) stored once per distinct list of `<activity>` parts; a workflow's
   * entry holds the list's index in place of the strings.
   */
  activityTypeLists: string[][];
}

/**
 * The validation outcome of the last start (`<cacheDir>/validation.json`), reused while the validator's code is
 * the same and the file system gives every answer the validation read again (file contents, stats, real
 * paths, directory listings: `sameAnswers`). So an unchanged project skips validation, and any change to a
 * file it read, a file appearing where it looked, or a new package in node_modules validates again. Never
 * throws: an unreadable record is a miss.
 */
export class ValidationCache {
  constructor(readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, 'validation.json');
  }

  /** The stored report for `key` when nothing it read has changed, else `null`. */
  lookup(key: string, digests: FileDigests): ValidationReport | null {
    let record: ValidationRecord;
    try {
      record = JSON.parse(readFileSync(this.file, 'utf8')) as ValidationRecord;
    } catch {
      return null;
    }
    if (record?.key !== key || !Array.isArray(record.observations) || !Array.isArray(record.activityTypeLists)) return null;
    if (!sameAnswers(record.observations, digests)) return null;
    for (const wf of record.report.manifest.workflows as Array<Omit<WorkflowEntry, 'activityTypes'> & { activityTypes: string[] | number }>) {
      if (typeof wf.activityTypes === 'number') wf.activityTypes = record.activityTypeLists[wf.activityTypes]!.map((a) => `${wf.name}#${a}`);
    }
    return record.report;
  }

  /** Stores the outcome of a validation (one record: the newest). Errors are returned, never thrown. */
  async store(key: string, observations: Observation[], report: ValidationReport): Promise<Error | undefined> {
    const activityTypeLists: string[][] = [];
    const listIds = new Map<string, number>();
    const workflows = report.manifest.workflows.map((wf) => {
      const prefix = `${wf.name}#`;
      if (!wf.activityTypes.every((t) => t.startsWith(prefix))) return wf;
      const parts = wf.activityTypes.map((t) => t.slice(prefix.length));
      const id = JSON.stringify(parts);
      let index = listIds.get(id);
      if (index === undefined) {
        listIds.set(id, (index = activityTypeLists.length));
        activityTypeLists.push(parts);
      }
      return { ...wf, activityTypes: index };
    });
    const stored = { key, observations, activityTypeLists, report: { ...report, manifest: { ...report.manifest, workflows } } };
    try {
      await atomicWrite(this.file, JSON.stringify(stored));
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }
}
