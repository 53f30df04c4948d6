/**
 * Evaluation result classes: what an evaluator may return when it wants its result checked and typed by class
 * (`new EvaluationBooleanResult({ value: true, confidence: 0.9 })`). Each constructor validates its arguments with
 * zod and throws `EvaluationResultValidationError` (a `ValidationError`) naming every invalid field. Pure: both the
 * Node entry and the workflow-safe entry share this one definition. Across the activity boundary an instance
 * travels as its plain JSON form (`{ value, confidence, reasoning?, name?, feedback, dimensions }`).
 */
import { z } from 'zod';
import { ValidationError } from './errors.js';

/** Thrown by the evaluation result constructors when their arguments are invalid. Non-retryable. */
export class EvaluationResultValidationError extends ValidationError {}

/** How urgent an `EvaluationFeedback` is. */
export type EvaluationFeedbackPriority = 'low' | 'medium' | 'high' | 'critical';

const feedbackSchema = z.object({
  issue: z.string(),
  suggestion: z.string().optional(),
  reference: z.string().optional(),
  priority: z.enum(['low', 'medium', 'high', 'critical']).optional(),
});

function checked<T>(schema: z.ZodType<T>, args: unknown, label: string): T {
  const result = schema.safeParse(args);
  if (!result.success) throw new EvaluationResultValidationError(`Invalid ${label}: ${z.prettifyError(result.error)}`);
  return result.data;
}

/** One piece of feedback of an evaluation: the issue found, and optionally a suggestion, a reference and a priority. */
export class EvaluationFeedback {
  /** The issue found. */
  issue: string;
  /** How to improve. */
  suggestion?: string;
  /** Where the issue is (a quote, a path, a URL). */
  reference?: string;
  priority?: EvaluationFeedbackPriority;

  /** The zod schema the constructor checks its arguments with. */
  static get schema(): z.ZodType {
    return feedbackSchema;
  }

  /** @throws EvaluationResultValidationError when `issue` is not a string or another field has the wrong type. */
  constructor(args: { issue: string; suggestion?: string; reference?: string; priority?: EvaluationFeedbackPriority }) {
    const { issue, suggestion, reference, priority } = checked(feedbackSchema, args, 'EvaluationFeedback');
    this.issue = issue;
    this.suggestion = suggestion;
    this.reference = reference;
    this.priority = priority;
  }
}

/** Constructor arguments of the evaluation result classes; `TValue` is the type of `value`. */
export interface EvaluationResultArgs<TValue = unknown> {
  value: TValue;
  /** Confidence in the value, a number (the evaluator contract keeps it in [0, 1]). */
  confidence: number;
  /** A name for this evaluation (used for dimensions). */
  name?: string;
  reasoning?: string;
  feedback?: EvaluationFeedback[];
  /** Sub-evaluations, one level deep; their values are strings, numbers or booleans. */
  dimensions?: Array<EvaluationStringResult | EvaluationNumberResult | EvaluationBooleanResult>;
}

/**
 * The base evaluation result: `value` of any type. Subclasses narrow `value` through their static `valueSchema`.
 * (The seed system names this base class `EvaluationResult` but does not export it at run time; in Skein
 * `EvaluationResult` is the type every evaluator returns, which each of these classes satisfies.)
 */
export class BaseEvaluationResult<TValue = unknown> {
  name?: string;
  value: TValue;
  confidence: number;
  reasoning?: string;
  feedback: EvaluationFeedback[];
  dimensions: Array<EvaluationStringResult | EvaluationNumberResult | EvaluationBooleanResult>;

  /** The schema of `value`; subclasses override it. */
  static valueSchema: z.ZodType = z.any();

  /** The zod schema the constructor checks its arguments with (dimensions are one level deep). */
  static get schema(): z.ZodType {
    const base = z.object({
      value: this.valueSchema,
      confidence: z.number(),
      reasoning: z.string().optional(),
      name: z.string().optional(),
      feedback: z.array(feedbackSchema).optional(),
    });
    return base.extend({ dimensions: z.array(base.extend({ value: z.union([z.string(), z.number(), z.boolean()]) })).optional() });
  }

  /** @throws EvaluationResultValidationError naming each invalid field (a `value` of the wrong type, a missing `confidence`, …). */
  constructor(args: EvaluationResultArgs<TValue>) {
    const ctor = this.constructor as typeof BaseEvaluationResult;
    const { value, confidence, dimensions = [], feedback = [], name, reasoning } = args ?? ({} as EvaluationResultArgs<TValue>);
    checked(ctor.schema, { value, confidence, dimensions, feedback, name, reasoning }, ctor.name);
    this.value = value;
    this.confidence = confidence;
    this.dimensions = dimensions;
    this.feedback = feedback;
    this.name = name;
    this.reasoning = reasoning;
  }
}

/** An evaluation result whose `value` is a string. */
export class EvaluationStringResult extends BaseEvaluationResult<string> {
  static override valueSchema: z.ZodType = z.string();
}

/** An evaluation result whose `value` is a number. */
export class EvaluationNumberResult extends BaseEvaluationResult<number> {
  static override valueSchema: z.ZodType = z.number();
}

/** An evaluation result whose `value` is a boolean. */
export class EvaluationBooleanResult extends BaseEvaluationResult<boolean> {
  static override valueSchema: z.ZodType = z.boolean();
}

/** An evaluation result whose `value` is a verdict: `pass`, `partial` or `fail`. */
export class EvaluationVerdictResult extends BaseEvaluationResult<'pass' | 'partial' | 'fail'> {
  static override valueSchema: z.ZodType = z.enum(['pass', 'partial', 'fail']);
}
