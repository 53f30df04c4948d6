import { describe, expect, it } from 'vitest';
import * as node from '../src/index.js';
import * as sandbox from '../src/workflow/index.js';

/** The evaluation result classes: the same classes from the Node entry and the workflow-safe entry. */
describe.each([
  ['Node entry', node],
  ['workflow entry', sandbox],
] as const)('evaluation result classes (%s)', (_entry, core) => {
  it('keep value, confidence, reasoning, name, feedback and dimensions', () => {
    const r = new core.EvaluationBooleanResult({
      value: true,
      confidence: 0.9,
      reasoning: 'two words',
      name: 'complete',
      feedback: [new core.EvaluationFeedback({ issue: 'none', priority: 'low' })],
      dimensions: [new core.EvaluationNumberResult({ name: 'words', value: 2, confidence: 1 })],
    });
    expect(JSON.parse(JSON.stringify(r))).toEqual({
      value: true,
      confidence: 0.9,
      reasoning: 'two words',
      name: 'complete',
      feedback: [{ issue: 'none', priority: 'low' }],
      dimensions: [{ name: 'words', value: 2, confidence: 1, feedback: [], dimensions: [] }],
    });
    expect(r).toBeInstanceOf(core.BaseEvaluationResult);
  });

  it.each([
    ['EvaluationStringResult', 'text', 1],
    ['EvaluationNumberResult', 0.5, 'half'],
    ['EvaluationBooleanResult', false, 'no'],
    ['EvaluationVerdictResult', 'partial', 'maybe'],
  ] as const)('%s accepts its value type and refuses another, naming the field', (name, good, bad) => {
    const Cls = core[name] as unknown as new (a: { value: unknown; confidence: number }) => { value: unknown };
    expect(new Cls({ value: good, confidence: 0.5 }).value).toBe(good);
    expect(() => new Cls({ value: bad, confidence: 0.5 })).toThrow(core.EvaluationResultValidationError);
    expect(() => new Cls({ value: bad, confidence: 0.5 })).toThrow(/value/);
  });

  it('refuses a missing confidence and a dimension whose value is not a scalar; the error is a non-retryable ValidationError', () => {
    const missing = () => new core.EvaluationNumberResult({ value: 1 } as never);
    expect(missing).toThrow(/confidence/);
    const objectValued = new core.BaseEvaluationResult({ value: { a: 1 }, confidence: 1 });
    expect(() => new core.EvaluationNumberResult({ value: 3, confidence: 1, dimensions: [objectValued as never] })).toThrow(/dimensions/);
    try {
      missing();
    } catch (err) {
      expect(err).toBeInstanceOf(core.ValidationError);
      expect(node.isNonRetryableError(err)).toBe(true);
      expect((err as Error).name).toBe('EvaluationResultValidationError');
    }
  });

  it('EvaluationFeedback requires an issue and a known priority', () => {
    expect(() => new core.EvaluationFeedback({} as never)).toThrow(/issue/);
    expect(() => new core.EvaluationFeedback({ issue: 'x', priority: 'urgent' as never })).toThrow(/priority/);
    expect(core.EvaluationFeedback.schema.safeParse({ issue: 'x', suggestion: 'y' }).success).toBe(true);
  });
});

describe('an evaluator answering an evaluation result class', () => {
  it('passes the evaluator contract and arrives as its plain form', async () => {
    const judge = node.evaluator({
      name: 'judge',
      fn: async (text: string) => new node.EvaluationVerdictResult({ value: text ? 'pass' : 'fail', confidence: 0.7 }),
    });
    expect(JSON.parse(JSON.stringify(await judge('x')))).toEqual({ value: 'pass', confidence: 0.7, feedback: [], dimensions: [] });
  });
});
