/** The validator's usage error, in a module of its own so that the command's light entry can name it without loading the analysis. */

/** Thrown when `root` is not a readable directory (a usage error: the CLI exits 2). */
export class ValidationInputError extends Error {
  override name = 'ValidationInputError';
}
