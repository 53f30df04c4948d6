import path from 'node:path';
import { loadSettings } from '@skein/settings';
import { workerSettings } from '../host/settings.js';
import { FileDigests } from './file-digests.js';

/**
 * The caches a worker start reads and fills under one directory (default `<project>/.skein/startup/`; layout in
 * docs/architecture.md): the shared file digests (`file-digests.json`) that the bundle and facts caches compare
 * contents through. The validation's cache is the validator's own file (`startupValidationCacheFile`).
 */
export interface StartupCaches {
  dir: string;
  digests: FileDigests;
}

/** Opens the startup caches under `dir` (nothing is written until a cache is filled). */
export function openStartupCaches(dir: string): StartupCaches {
  return { dir, digests: new FileDigests(path.join(dir, 'file-digests.json')) };
}

/**
 * The startup cache directory of a worker on `projectDir`: `option` when given (a directory, or `false` for
 * none), else `SKEIN_STARTUP_CACHE` (a directory, or `off`), else `<projectDir>/.skein/startup`.
 * @throws ConfigError when `SKEIN_STARTUP_CACHE` is malformed.
 */
export function startupCacheDir(projectDir: string, option?: string | false): string | false {
  if (option !== undefined) return option;
  const fromEnv = loadSettings({ SKEIN_STARTUP_CACHE: workerSettings.SKEIN_STARTUP_CACHE }).SKEIN_STARTUP_CACHE;
  if (fromEnv === 'off') return false;
  return fromEnv ? path.resolve(fromEnv) : path.join(path.resolve(projectDir), '.skein', 'startup');
}
