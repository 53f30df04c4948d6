import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ValidationReport } from '@skein/validator';
import { atomicWrite, type FileDigests } from './file-digests.js';
import { sameAnswers, type Observation } from './recording-fs.js';

/** The stored validation outcome: the report, and every file-system answer it was computed from. */
interface ValidationRecord {
  /** Validator/discovery code and the project root validated (`toolFingerprint` + root). */
  key: string;
  observations: Observation[];
  report: ValidationReport;
}

/**
 * The validation outcome of the last start (`<cacheDir>/validation.bin`, V8-serialized), reused while the
 * validator's code is the same and the file system gives every answer the validation read again (file
 * contents, stats, real paths, directory listings: `sameAnswers`). So an unchanged project skips validation,
 * and any change to a file it read, a file appearing where it looked, or a new package in node_modules
 * validates again. Never throws: an unreadable record is a miss.
 */
export class ValidationCache {
  constructor(readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, 'validation.bin');
  }

  /** The stored report for `key` when nothing it read has changed, else `null`. */
  lookup(key: string, digests: FileDigests): ValidationReport | null {
    let record: ValidationRecord;
    try {
      record = deserialize(readFileSync(this.file)) as ValidationRecord;
    } catch {
      return null;
    }
    if (record?.key !== key || !Array.isArray(record.observations)) return null;
    return sameAnswers(record.observations, digests) ? record.report : null;
  }

  /** Stores the outcome of a validation (one record: the newest). Errors are returned, never thrown. */
  async store(key: string, observations: Observation[], report: ValidationReport): Promise<Error | undefined> {
    try {
      await atomicWrite(this.file, serialize({ key, observations, report } satisfies ValidationRecord));
      return undefined;
    } catch (err) {
      return err as Error;
    }
  }
}
