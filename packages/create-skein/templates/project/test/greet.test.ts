import { describe, expect, it } from 'vitest';
import greet from '../src/greet/workflow.js';
import { composeGreeting } from '../src/greet/steps.js';
import { judgeTone } from '../src/greet/evaluators.js';

// The fast path: called in plain Node, a workflow runs in-process (schemas checked, steps run as functions,
// no engine), and so does a step or an evaluator on its own.
describe('greet, in-process', () => {
  it('greets the world when given no input (the schema has defaults)', async () => {
    await expect(greet({})).resolves.toEqual({
      message: 'Hello, world.',
      tone: { value: 'friendly', confidence: 0.9, reasoning: 'greets the reader' },
    });
  });

  it('shouts when excited', async () => {
    await expect(greet({ name: 'Ada', excited: true })).resolves.toMatchObject({ message: 'HELLO, ADA!' });
  });

  it('runs a step and an evaluator on their own', async () => {
    await expect(composeGreeting({ name: 'Ada' })).resolves.toBe('Hello, Ada.');
    await expect(judgeTone({ message: 'Goodbye' })).resolves.toMatchObject({ value: 'neutral' });
  });

  it('rejects input its schema refuses', async () => {
    await expect(greet({ name: '' })).rejects.toThrow(/name/);
  });
});
