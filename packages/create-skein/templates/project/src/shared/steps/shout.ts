import { step, z } from '@skein/core';

/** A shared step: any workflow of this project may call it. */
export const shout = step({
  name: 'shout',
  inputSchema: z.string(),
  outputSchema: z.string(),
  fn: async (text) => `${text.replace(/\.$/, '').toUpperCase()}!`,
});
