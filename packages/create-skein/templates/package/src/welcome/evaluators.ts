import { evaluator, z } from '@skein/core';

/** An evaluator: a step that judges something and answers `{ value, confidence?, reasoning? }`. */
export const judgeTone = evaluator({
  name: 'judgeTone',
  inputSchema: z.object({ message: z.string() }),
  fn: async ({ message }) => {
    const friendly = /hello|welcome|thanks/i.test(message);
    return { value: friendly ? 'friendly' : 'neutral', confidence: 0.9, reasoning: friendly ? 'greets the reader' : 'no greeting word' };
  },
});
