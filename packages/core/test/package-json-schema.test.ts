import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { packageJsonSchema } from '../src/index.js';

const shipped = JSON.parse(readFileSync(new URL('../package-json.schema.json', import.meta.url), 'utf8'));
const check = new Ajv2020({ allErrors: true, strict: false }).compile(shipped);

describe('package-json.schema.json (the "skein" key, for editors)', () => {
  it('is the zod schema, generated (run `npm run generate:schema` after changing it)', () => {
    expect(shipped).toEqual(packageJsonSchema());
  });

  it('accepts a workflow package, a project with hook files, and any other package.json field', () => {
    expect(check({ name: 'x', version: '1.0.0', exports: './dist/index.js', skein: { workflows: { expose: true } } })).toBe(true);
    expect(check({ name: 'app', skein: { hookFiles: ['./hooks.ts'] } })).toBe(true);
    expect(check({ name: 'plain' })).toBe(true);
  });

  it('refuses what discovery would not take: a string flag, a misspelt key, hook files that are not paths', () => {
    expect(check({ skein: { workflows: { expose: 'true' } } })).toBe(false);
    expect(check({ skein: { workflow: { expose: true } } })).toBe(false);
    expect(check({ skein: { workflows: { expsoe: true } } })).toBe(false);
    expect(check({ skein: { hookFiles: './hooks.js' } })).toBe(false);
  });
});
