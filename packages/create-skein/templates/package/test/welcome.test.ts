import { describe, expect, it } from 'vitest';
import welcome from '../src/welcome/workflow.js';
import { composeWelcome } from '../src/welcome/steps.js';
import { judgeTone } from '../src/welcome/evaluators.js';

// The fast path: called in plain Node, a workflow runs in-process (schemas checked, steps run as functions,
// no engine), and so does a step or an evaluator on its own.
describe('welcome, in-process', () => {
  it('welcomes the world when given no input (the schema has defaults)', async () => {
    await expect(welcome({})).resolves.toEqual({
      message: 'Welcome, world.',
      tone: { value: 'friendly', confidence: 0.9, reasoning: 'greets the reader' },
    });
  });

  it('exclaims when excited', async () => {
    await expect(welcome({ name: 'Ada', excited: true })).resolves.toMatchObject({ message: 'WELCOME, ADA!' });
  });

  it('runs a step and an evaluator on their own', async () => {
    await expect(composeWelcome({ name: 'Ada' })).resolves.toBe('Welcome, Ada.');
    await expect(judgeTone({ message: 'Goodbye' })).resolves.toMatchObject({ value: 'neutral' });
  });

  it('rejects input its schema refuses', async () => {
    await expect(welcome({ name: '' })).rejects.toThrow(/name/);
  });
});
