import { evaluator, z } from '@skein/core';

export const judgeReadability = evaluator({
  name: 'judgeReadability',
  inputSchema: z.object({ words: z.number(), sentences: z.number() }),
  fn: async ({ words, sentences }) => {
    const perSentence = words / Math.max(sentences, 1);
    const value = perSentence < 12 ? 'easy' : perSentence < 20 ? 'medium' : 'hard';
    return { value, confidence: 0.8, reasoning: `${perSentence.toFixed(1)} words per sentence` };
  },
});
