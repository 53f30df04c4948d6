import { readFileSync } from 'node:fs';

/** The version of `@skein/api`, read from its package.json (the OpenAPI document's `info.version`, the start line's `version`). */
export const API_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
