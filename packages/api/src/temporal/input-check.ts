import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { validationError } from '../errors.js';

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);

/** Compiled validators per published input schema (the catalog cache keeps each document's objects). */
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks `input` against a workflow's input schema as its catalog publishes it (JSON Schema 2020-12, generated
 * from the workflow's zod schema), before anything is created that would start runs with it later. A workflow
 * without a published schema accepts any input.
 * @param where the request path of the input, e.g. `['body', 'input']`.
 * @throws ApiError `ValidationError` (400) whose issues name each failing part under `where`.
 */
export function checkInput(schema: object | null, input: unknown, where: (string | number)[]): void {
  if (!schema) return;
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return; // A schema Ajv cannot compile is left to the workflow's own check when a run starts.
    }
    compiled.set(schema, validate);
  }
  if (validate(input === undefined ? null : input)) return;
  const issues = (validate.errors ?? []).map((e) => ({
    code: 'invalid_input',
    path: [...where, ...e.instancePath.split('/').filter(Boolean)],
    message: `${e.instancePath || '(input)'} ${e.message ?? 'is invalid'}`,
  }));
  throw validationError("The input does not match the workflow's input schema", issues);
}
