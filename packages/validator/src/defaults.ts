/**
 * Defaults the command's light entry needs without loading the analysis core (a test keeps them equal to
 * @skein/discovery's).
 */

/** Default size cap of one source file: 1 MiB (`DEFAULT_MAX_FILE_BYTES` of @skein/discovery). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
