/**
 * The `skein` key of a package.json, as a zod schema: the one description of what it may hold, from which the
 * JSON Schema shipped as `@skein/core/package-json.schema.json` (for editors) is generated.
 */
import { z } from 'zod';
import { PACKAGE_JSON_KEY } from './names.js';

/** `"skein": { ... }` in a package.json. */
export const skeinPackageJsonSettings = z
  .strictObject({
    workflows: z
      .strictObject({
        expose: z
          .boolean()
          .describe('true: the workflows this package exports are served by every project that depends on it. Anything but the boolean true exposes nothing.'),
      })
      .describe('Workflow package settings.')
      .optional(),
    hookFiles: z
      .array(z.string())
      .describe(
        "A project's hook files (relative paths inside the project), imported by the worker at start; they register hooks with onWorkflowStart, on, ...",
      )
      .optional(),
  })
  .describe('Skein settings: https://github.com/skein-dev/skein#write-a-workflow-package');

/**
 * The JSON Schema (draft 2020-12) of a package.json's `skein` key, within an object that allows every other
 * package.json field: what `package-json.schema.json` holds.
 * @returns a plain JSON value.
 */
export function packageJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(z.looseObject({ [PACKAGE_JSON_KEY]: skeinPackageJsonSettings.optional() }));
  return { ...schema, title: 'package.json of a Skein project or workflow package (the "skein" key)' };
}
