/**
 * Compiled (never run) by authoring-types.test.ts: what `workflow()`, `step()` and `evaluator()` accept and what their
 * calls resolve to. Each `@ts-expect-error` below must meet an error, or the compiler reports the directive itself as
 * unused.
 */
import { evaluator, step, workflow, z, type WorkflowConfig } from '../../src/index.js';

// An output schema parses what `fn` returns: `fn` returns the schema's input (a field with a default may be left out,
// an unknown key is stripped), a call resolves to its output (the default applied).
const scaleValue = step({
  name: 'scale_value',
  inputSchema: z.object({ value: z.coerce.number().default(1), factor: z.number().default(10) }),
  outputSchema: z.object({ product: z.number(), unit: z.string().default('x') }),
  fn: async (input) => ({ product: input.value * input.factor, scratch: 'dropped-by-output-schema' }),
});
export const scaled: Promise<{ product: number; unit: string }> = scaleValue({});

const report = workflow({
  name: 'report',
  inputSchema: z.object({ id: z.string() }),
  outputSchema: z.object({ id: z.string(), pages: z.number().default(1) }),
  fn: async ({ id }) => ({ id }),
});
export const reported: Promise<{ id: string; pages: number }> = report({ id: 'a' });

// Without an output schema a call resolves to what `fn` returns.
const double = step({ name: 'double', inputSchema: z.number(), fn: async (n) => n * 2 });
export const doubled: Promise<number> = double(2);
const untyped = workflow({ name: 'untyped', fn: async () => ({ ok: true as const }) });
export const untypedResult: Promise<{ ok: true }> = untyped();

// The schemas' types are known before `fn` is checked: a default value of an optional input's parameter.
const recursive = workflow({
  name: 'nested_recursive',
  inputSchema: z.object({ currentDepth: z.number() }).optional(),
  fn: async ({ currentDepth } = { currentDepth: 0 }) => currentDepth + 1,
});
export const depth: Promise<number> = recursive(undefined);
export const depthFrom: Promise<number> = recursive({ currentDepth: 2 });
// @ts-expect-error the input's field must be a number
void recursive({ currentDepth: 'two' });

// Without an input schema, `fn`'s annotated parameter is the input.
const annotated = step({ name: 'annotated', fn: async (input: { a: number }) => input.a });
export const annotatedResult: Promise<number> = annotated({ a: 1 });

// A helper that wraps `workflow()` with the config type keeps its types.
function traced<I, O>(config: WorkflowConfig<I, O>) {
  return workflow({ ...config, options: { ...config.options, disableTrace: false } });
}
const wrapped = traced({ name: 'wrapped', inputSchema: z.object({ n: z.number() }), fn: async ({ n }) => n > 1 });
export const wrappedResult: Promise<boolean> = wrapped({ n: 2 });

// Explicit type arguments keep their meaning: the input, then what `fn` returns and a call resolves to.
const explicit = step<{ a: number }, { b: string }>({ name: 'explicit', fn: async ({ a }) => ({ b: String(a) }) });
export const explicitResult: Promise<{ b: string }> = explicit({ a: 1 });

// What `fn` returns is still checked against the output schema.
step({
  name: 'wrong_output',
  inputSchema: z.object({ v: z.number() }),
  outputSchema: z.object({ product: z.number() }),
  // @ts-expect-error `product` must be a number
  fn: async (input) => ({ product: String(input.v) }),
});
workflow({
  name: 'wrong_output_workflow',
  outputSchema: z.object({ product: z.number() }),
  // @ts-expect-error a required field without a default is left out
  fn: async () => ({}),
});

// An evaluator resolves to its output schema's output with the fields every evaluation result has.
const judge = evaluator({
  name: 'judge',
  outputSchema: z.object({ value: z.boolean(), confidence: z.number(), reasoning: z.string().optional() }),
  fn: async () => ({ value: true, confidence: 0.9 }),
});
export const judged: Promise<{ value: boolean; confidence: number }> = judge(undefined);
