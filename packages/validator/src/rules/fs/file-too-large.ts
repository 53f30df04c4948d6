/**
 * `fs/file-too-large`: a file is larger than `maxFileBytes` (default 1 MiB) and is not parsed, so an
 * enormous file cannot stall validation. Same id as discovery's finding.
 */
import type { RuleMeta } from '../../types.js';

export const meta: RuleMeta = {
  id: 'fs/file-too-large',
  severity: 'error',
  description: 'Files the validator must read are at most `maxFileBytes` (default 1 MiB).',
  docs: { path: 'docs/rules/fs/file-too-large.md' },
  messages: { tooLarge: 'The file is {{size}} bytes, larger than the {{max}}-byte limit; it was not checked.' },
  hints: { tooLarge: 'Split the file, or move generated data out of workflow, steps and evaluators files.' },
};
