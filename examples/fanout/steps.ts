import { FatalError, step, z } from '@skein/core';

/** Counts the words of one text; an empty text is a FatalError (retrying cannot fix it). */
export const countWordsOf = step({
  name: 'countWordsOf',
  inputSchema: z.string(),
  outputSchema: z.number().int(),
  fn: async (text: string) => {
    if (text.trim() === '') throw new FatalError('empty text');
    return text.trim().split(/\s+/).length;
  },
});
