import { step, z } from '@skein/core';

/**
 * A shared step: any workflow of this package may call it. Named apart from the project template's `shout`, so that a
 * project and this package serve side by side without one shared step overriding the other.
 */
export const exclaim = step({
  name: 'exclaim',
  inputSchema: z.string(),
  outputSchema: z.string(),
  fn: async (text) => `${text.replace(/\.$/, '').toUpperCase()}!`,
});
