import { step, z } from '@skein/core';

const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'is', 'are', 'it', 'its', 'for', 'with', 'as', 'by', 'that', 'this']);

export const countWords = step({
  name: 'countWords',
  inputSchema: z.object({ text: z.string() }),
  outputSchema: z.object({ words: z.number(), sentences: z.number() }),
  fn: async ({ text }) => ({
    words: text.split(/\s+/).filter(Boolean).length,
    sentences: text.split(/[.!?]+/).filter((s) => s.trim()).length,
  }),
});

export const extractKeywords = step({
  name: 'extractKeywords',
  inputSchema: z.object({ text: z.string(), count: z.number().int().positive() }),
  outputSchema: z.array(z.string()),
  fn: async ({ text, count }) => {
    const freq = new Map();
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      if (word.length > 2 && !STOP_WORDS.has(word)) freq.set(word, (freq.get(word) ?? 0) + 1);
    }
    return [...freq]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, count)
      .map(([w]) => w);
  },
});
