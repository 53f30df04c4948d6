import { workflow, z } from '@skein/core';
import { countWords, extractKeywords } from './steps.js';
import { judgeReadability } from './evaluators.js';

export default workflow({
  name: 'summarize',
  description: 'Counts words, extracts keywords and judges the readability of a text.',
  inputSchema: z.object({ text: z.string().min(1), keywords: z.number().int().min(1).max(10).default(3) }),
  outputSchema: z.object({
    words: z.number(),
    sentences: z.number(),
    keywords: z.array(z.string()),
    readability: z.object({ value: z.enum(['easy', 'medium', 'hard']), confidence: z.number(), reasoning: z.string() }),
  }),
  options: { activityOptions: { startToCloseTimeout: '30s' } },
  fn: async ({ text, keywords: count }) => {
    const stats = await countWords({ text });
    const keywords = await extractKeywords({ text, count });
    const readability = await judgeReadability(stats);
    return { ...stats, keywords, readability };
  },
});
