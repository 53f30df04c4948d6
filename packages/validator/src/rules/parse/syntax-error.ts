/**
 * `parse/syntax-error`: a file the validator must read (workflow, steps or evaluators file, or workflow code
 * they import) does not parse. Same id as discovery's finding; reported by the engine only for files
 * discovery did not already report.
 */
import type { RuleMeta } from '../../types.js';

export const meta: RuleMeta = {
  id: 'parse/syntax-error',
  severity: 'error',
  description: 'Files the validator checks parse as JavaScript (or TypeScript for .ts sources).',
  docs: { path: 'docs/rules/parse/syntax-error.md' },
  messages: { syntax: 'Syntax error: {{message}}.' },
  hints: { syntax: 'Fix the syntax error; the worker cannot load this file either.' },
};

/** The rule object the engine reports syntax errors with (it has no visitors). */
export const syntaxErrorRule = { meta };
