// Writes packages/core/package-json.schema.json, the JSON Schema of package.json's "skein" key, from the zod
// schema in @skein/core (packages/core/src/shared/package-json.ts). Run after `npm run build`.
import { writeFileSync } from 'node:fs';
import { packageJsonSchema } from '@skein/core';

const file = new URL('../packages/core/package-json.schema.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(packageJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file.pathname}`);
