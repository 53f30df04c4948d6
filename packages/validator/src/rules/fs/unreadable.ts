/**
 * `fs/unreadable`: a file the validator must read exists but cannot be read (permissions, a directory
 * named like a file). Same id as discovery's finding.
 */
import type { RuleMeta } from '../../types.js';

export const meta: RuleMeta = {
  id: 'fs/unreadable',
  severity: 'error',
  description: 'Files the validator must read can be read.',
  docs: { path: 'docs/rules/fs/unreadable.md' },
  messages: { unreadable: 'The file cannot be read ({{reason}}).' },
  hints: { unreadable: 'Check the file\'s permissions, or remove it from the package.' },
};
