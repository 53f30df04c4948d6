/** The validator's usage errors, in a module of their own so that the command's light entry can name it without loading the analysis. */

/** Thrown when `root` is not a readable directory (a usage error: the CLI exits 2). */
export class ValidationInputError extends Error {
  override name = 'ValidationInputError';
}

/**
 * Thrown when a `--baseline` is neither a build made by `skein build` nor a project, when its command shapes cannot be
 * read, or when it is a build of another project (a usage error: the CLI exits 2 with its one-line message).
 */
export class BaselineError extends Error {
  override name = 'BaselineError';
}
