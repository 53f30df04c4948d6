import { step, z } from '@skein/core';

/** A project-level shared step: any workflow of the project may call it. */
export const slugify = step({
  name: 'slugify',
  inputSchema: z.string(),
  outputSchema: z.string(),
  fn: async (text) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
});
