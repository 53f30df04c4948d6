import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
// The repository tool that writes the file; it reads the API's OpenAPI document from @skein/api.
import { renderClientTypes, TYPES_FILE } from '../../../scripts/generate-client-types.mjs';

describe('generated OpenAPI types', () => {
  it('match the API schemas (run `npm run generate:client` after changing them)', async () => {
    const committed = await readFile(TYPES_FILE, 'utf8');
    expect(committed === (await renderClientTypes()), 'packages/client/src/generated/openapi.ts is out of date: npm run generate:client').toBe(true);
  });
});
