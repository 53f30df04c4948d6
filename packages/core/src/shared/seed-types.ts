/**
 * Type names the seed system's core package declares, as aliases of Skein's own types, so that type imports of code
 * written for it (`import type { StepOptions } from '@skein/core'`) keep compiling. Types only: nothing at run time.
 */
import type { z } from 'zod';
import type { ChildWorkflowCallOptions, SkeinActivity, SkeinWorkflow } from './callables.js';
import type { ActivityDefinitionOptions, WorkflowDefinitionOptions } from './definition.js';
import type { ActivityOptions } from './options.js';

/** Options of `workflow({ options })`: `activityOptions` and `disableTrace`. */
export type WorkflowOptions = WorkflowDefinitionOptions;
/** Options of `step({ options })`: `activityOptions` and `disableTrace`. */
export type StepOptions = ActivityDefinitionOptions;
/** Options of `evaluator({ options })`: `activityOptions` and `disableTrace`. */
export type EvaluatorOptions = ActivityDefinitionOptions;
/** Temporal activity options a definition may set (`startToCloseTimeout`, `retry`, …). */
export type TemporalActivityOptions = ActivityOptions;
/** The second argument of a workflow call: `{ detached?, activityOptions?, workflowId?, context? }` (`context`: plain Node only). */
export type WorkflowInvocationOptions = ChildWorkflowCallOptions;
/** Any zod schema. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyZodSchema = z.ZodType<any, any, any>;
/** `T` with every property optional, recursively. */
export type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;
/** What `workflow()` returns. */
export type WorkflowFunctionWrapper<I = unknown, O = unknown> = SkeinWorkflow<I, O>;
/** What `step()` returns. */
export type StepFunctionWrapper<I = unknown, O = unknown> = SkeinActivity<I, O>;
/** What `evaluator()` returns. */
export type EvaluatorFunctionWrapper<I = unknown, O = unknown> = SkeinActivity<I, O>;
