import { z } from 'zod';
import { NAME_PATTERN } from './names.js';
import { activityDefinitionOptionsSchema, workflowOptionsSchema, type ActivityOptions, type WorkflowActivityOptions } from './options.js';
import type { WorkflowContext } from './context.js';

/** Marks a value returned by `workflow()`, `step()` or `evaluator()`; the key is a registered symbol so copies of core agree. */
export const SKEIN = Symbol.for('skein.definition');

/** What kind of definition a `SKEIN`-marked value carries. `internal_step` is reserved for framework activities. */
export type ActivityKind = 'step' | 'evaluator';

/** A zod schema, or anything with zod's `safeParse`. */
export type Schema<T = unknown> = z.ZodType<T>;

/** What `evaluator` functions return: a value with an optional confidence in [0, 1] and reasoning. */
export interface EvaluationResult<V = unknown> {
  value: V;
  confidence?: number;
  reasoning?: string;
}

/**
 * What a call of an evaluator resolves to: the type its `fn` returns, or its `outputSchema`'s output (`R`, for
 * example `EvaluationNumberResult`), with the fields every evaluation result has (`EvaluationResult<V>`); an `fn`
 * typed `any` gives `EvaluationResult<V>`. The value travels as JSON, so it holds the class's fields, not its
 * prototype: test it by its fields, never with `instanceof`.
 */
export type EvaluatorResult<R extends EvaluationResult<V>, V = unknown> = 0 extends 1 & R ? EvaluationResult<V> : R & EvaluationResult<V>;

/** Options of a workflow definition. */
export interface WorkflowDefinitionOptions {
  /**
   * Activity options for every step and evaluator this workflow calls (the definition layer of activity options); an
   * `activityId` belongs on a step's own options.
   */
  activityOptions?: WorkflowActivityOptions;
  /** `true`: the workflow's runs write no trace (no local file, no upload) and `trace.destinations` answers `{}`. */
  disableTrace?: boolean;
}

/** Options of a step or evaluator definition. */
export interface ActivityDefinitionOptions {
  /** Activity options of this step or evaluator (the most specific layer). */
  activityOptions?: ActivityOptions;
  /** `true`: its calls are left out of the run's trace (the run's other nodes are kept). */
  disableTrace?: boolean;
}

/**
 * How a workflow's runs move between versions of a project (Temporal's Worker Versioning):
 * - `pinned` (default): a run finishes on the build it started on; a new build can change the workflow's code
 *   freely, since it only runs new runs.
 * - `auto-upgrade`: a run moves to the current build at its next workflow task; a change to its code must keep
 *   the recorded history valid (guard it with `patched()`), or the run fails with a nondeterminism error.
 */
export type VersioningBehavior = 'pinned' | 'auto-upgrade';

/**
 * A schedule a workflow declares: Skein keeps a Temporal Schedule in line with it while the build that declares it
 * is the current version (created, changed and deleted on promote and rollback, and on every `skein dev` reload).
 * Its id in the engine is `<catalog>:<workflowName>:<id>`.
 */
export interface WorkflowSchedule<In = unknown> {
  /** Unique among the workflow's schedules: letters, digits, `_` and `-`, at most 100 characters. */
  id: string;
  /** Cron entries: 5 fields (`0 9 * * MON-FRI`), `@daily`/`@hourly`/`@weekly`/`@monthly`/`@yearly`, or `@every <duration>`. */
  cron?: string | string[];
  /** A fixed interval instead of (or besides) `cron`: a duration string of at least 1s (`30s`, `15m`, `1h`). */
  every?: string;
  /** The input of every run it starts; checked against the workflow's input schema. Absent = null. */
  input?: In;
  /** IANA time zone the cron entries are read in (default UTC). */
  timezone?: string;
}

/**
 * The object passed to `workflow()`. `I` is what `fn` receives (the input schema's output, defaults applied),
 * `In` what callers pass (the schema's input: fields with a default may be left out).
 */
export interface WorkflowConfig<I, O, In = I> {
  /** The workflow type, unique in the catalog; matches `NAME_PATTERN`. */
  name: string;
  description?: string;
  /** Other names `POST /workflow/run` accepts for this workflow. */
  aliases?: string[];
  inputSchema?: z.ZodType<I, In>;
  outputSchema?: Schema<O>;
  /**
   * The workflow body; runs in Temporal's deterministic sandbox. `context` carries the run's `info` and
   * `control.continueAsNew` (see `WorkflowContext`).
   */
  fn: (input: I, context: WorkflowContext<I>) => Promise<O> | O;
  options?: WorkflowDefinitionOptions;
  /** Whether runs stay on the build they started on (`pinned`, the default) or move to the current one; see `VersioningBehavior`. */
  versioningBehavior?: VersioningBehavior;
  /** Recurring runs this workflow declares; see `WorkflowSchedule`. */
  schedules?: WorkflowSchedule<In>[];
}

/** The object passed to `step()` or `evaluator()`; `I` and `In` as in `WorkflowConfig`. */
export interface ActivityConfig<I, O, In = I> {
  /** The activity name; the registered activity type is `<workflowName>#<name>`. */
  name: string;
  description?: string;
  inputSchema?: z.ZodType<I, In>;
  outputSchema?: Schema<O>;
  /**
   * The activity body; runs in Node.js on the worker, may do I/O. `input` is any JSON value (object, array,
   * scalar) checked by `inputSchema`. Throw `FatalError` (or a subclass) to fail without retries.
   */
  fn: (input: I) => Promise<O> | O;
  options?: ActivityDefinitionOptions;
}

/**
 * How `workflow()` and `step()` type a config from its schemas, as the system Skein re-implements types them: with an
 * input schema `IS`, `fn` receives its output (`z.output`, defaults applied) and a call passes its input; with an
 * output schema `S`, `fn` returns its input (`z.input`: a field with a default may be left out, and the schema strips
 * an unknown key) and a call resolves to its output. Without a schema, `I` (what `fn`'s parameter is annotated with)
 * and `Returned` (what `fn` returns) stand in. The schemas' own types are inferred before `fn` is looked at, so `fn`
 * is checked against them, a parameter's default value included (`fn: async ({ depth } = { depth: 0 }) => …` with an
 * optional input schema).
 */
export type FnInput<IS, I> = IS extends z.ZodType ? z.output<IS> : I;
/** What a call of the definition passes (see `FnInput`). */
export type CallInput<IS, In> = IS extends z.ZodType ? z.input<IS> : In;
/** What `fn` returns (see `FnInput`). */
export type FnResult<S, Returned> = S extends z.ZodType ? z.input<S> : Returned;
/** What a call of the definition resolves to (see `FnInput`). */
export type CallResult<S, Returned> = S extends z.ZodType ? z.output<S> : Returned;

/** The config `workflow()` takes: `WorkflowConfig` with its schemas and `fn` typed as `FnInput` says. */
export type WorkflowDefineConfig<I, Returned, In, S, IS> = Omit<
  WorkflowConfig<FnInput<IS, I>, CallResult<S, Returned>, CallInput<IS, In>>,
  'inputSchema' | 'outputSchema' | 'fn'
> & {
  inputSchema?: IS;
  outputSchema?: S;
  /** See `WorkflowConfig.fn`. */
  fn: IS extends z.ZodType
    ? (input: z.output<IS>, context: WorkflowContext<z.output<IS>>) => Promise<FnResult<S, Returned>> | FnResult<S, Returned>
    : (input: I, context: WorkflowContext<I>) => Promise<FnResult<S, Returned>> | FnResult<S, Returned>;
};

/** The config `step()` takes: `ActivityConfig` with its schemas and `fn` typed as `FnInput` says. */
export type ActivityDefineConfig<I, Returned, In, S, IS> = Omit<
  ActivityConfig<FnInput<IS, I>, CallResult<S, Returned>, CallInput<IS, In>>,
  'inputSchema' | 'outputSchema' | 'fn'
> & {
  inputSchema?: IS;
  outputSchema?: S;
  /** See `ActivityConfig.fn`. */
  fn: IS extends z.ZodType
    ? (input: z.output<IS>) => Promise<FnResult<S, Returned>> | FnResult<S, Returned>
    : (input: I) => Promise<FnResult<S, Returned>> | FnResult<S, Returned>;
};

/** The normalized definition stored under `SKEIN` on what `workflow()` returns. */
export interface WorkflowDefinition<I = unknown, O = unknown> extends Omit<WorkflowConfig<I, O>, 'aliases'> {
  kind: 'workflow';
  aliases: string[];
}

/** The normalized definition stored under `SKEIN` on what `step()` / `evaluator()` return. */
export interface ActivityDefinition<I = unknown, O = unknown> extends ActivityConfig<I, O> {
  kind: ActivityKind;
}

/** Thrown by `workflow()`, `step()` and `evaluator()` when a definition is malformed. */
export class DefinitionError extends Error {
  override name = 'DefinitionError';
}

const nameSchema = z.string().regex(NAME_PATTERN, 'must match ^[A-Za-z_][A-Za-z0-9_]*$');
const schemaLike = z.custom<Schema>((v) => v == null || (typeof v === 'object' && typeof (v as { safeParse?: unknown }).safeParse === 'function'), {
  message: 'must be a zod schema',
});

const workflowConfigSchema = z
  .object({
    name: nameSchema,
    description: z.string().optional(),
    aliases: z.array(nameSchema).optional(),
    inputSchema: schemaLike.optional(),
    outputSchema: schemaLike.optional(),
    fn: z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'must be a function' }),
    options: workflowOptionsSchema.optional(),
    versioningBehavior: z.enum(['pinned', 'auto-upgrade']).optional(),
    schedules: z
      .array(
        z
          .object({
            id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1–100 letters, digits, `_` or `-`'),
            cron: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
            every: z.string().min(1).optional(),
            input: z.unknown().optional(),
            timezone: z.string().min(1).optional(),
          })
          .strict()
          .refine((s) => s.cron !== undefined || s.every !== undefined, { message: 'needs `cron` or `every`' }),
      )
      .refine((list) => new Set(list.map((s) => s.id)).size === list.length, { message: 'schedule ids must be unique' })
      .optional(),
  })
  // An unknown key is a typo (`outputschema`) that would silently drop what it meant: refused, as the seed system does.
  .strict();

const activityConfigSchema = z
  .object({
    name: nameSchema,
    description: z.string().optional(),
    inputSchema: schemaLike.optional(),
    outputSchema: schemaLike.optional(),
    fn: z.custom<(...a: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'must be a function' }),
    options: activityDefinitionOptionsSchema.optional(),
  })
  .strict();

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * Validates and normalizes a workflow config.
 * @throws DefinitionError naming the workflow and each invalid field.
 */
export function normalizeWorkflowConfig<I, O>(config: WorkflowConfig<I, O>): WorkflowDefinition<I, O> {
  const parsed = workflowConfigSchema.safeParse(config);
  if (!parsed.success) {
    const label = typeof config?.name === 'string' ? `workflow "${config.name}"` : 'workflow()';
    throw new DefinitionError(`Invalid ${label}: ${describeIssues(parsed.error)}`);
  }
  return { ...config, kind: 'workflow', aliases: config.aliases ?? [] };
}

/**
 * Validates and normalizes a step or evaluator config.
 * @throws DefinitionError naming the activity and each invalid field.
 */
export function normalizeActivityConfig<I, O>(kind: ActivityKind, config: ActivityConfig<I, O>): ActivityDefinition<I, O> {
  const parsed = activityConfigSchema.safeParse(config);
  if (!parsed.success) {
    const label = typeof config?.name === 'string' ? `${kind} "${config.name}"` : `${kind}()`;
    throw new DefinitionError(`Invalid ${label}: ${describeIssues(parsed.error)}`);
  }
  return { ...config, kind };
}

/** Reads the definition carried by a value returned from `workflow()`, `step()` or `evaluator()`, if any. */
export function definitionOf(value: unknown): WorkflowDefinition | ActivityDefinition | undefined {
  if ((typeof value === 'function' || (typeof value === 'object' && value !== null)) && SKEIN in value) {
    return (value as Record<symbol, WorkflowDefinition | ActivityDefinition>)[SKEIN];
  }
  return undefined;
}
