import { step, z } from '@skein/core';

/** Processes one page of item ids (an array input) and answers how many it handled. */
export const processPage = step({
  name: 'processPage',
  inputSchema: z.array(z.string()),
  outputSchema: z.number().int(),
  fn: async (ids: string[]) => ids.filter((id) => id.trim() !== '').length,
});
