/** Exit codes of `validate-workflow-package` (a module of their own, so the bin's main thread needs nothing else). */

/** Exit code: no errors (and warnings within `--max-warnings`). */
export const EXIT_OK = 0;
/** Exit code: errors, or more warnings than `--max-warnings`. */
export const EXIT_FINDINGS = 1;
/** Exit code: usage error (bad arguments, a directory that does not exist). Bad input files are findings, never this. */
export const EXIT_USAGE = 2;
/** Exit code: a bug in the validator itself (never expected; reported without a stack trace). */
export const EXIT_INTERNAL = 3;
