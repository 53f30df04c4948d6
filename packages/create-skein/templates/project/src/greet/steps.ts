import { step, z } from '@skein/core';

/** A step: runs as a Temporal activity (retried on failure), so it may call APIs, read files, use the clock. */
export const composeGreeting = step({
  name: 'composeGreeting',
  inputSchema: z.object({ name: z.string() }),
  outputSchema: z.string(),
  fn: async ({ name }) => `Hello, ${name}.`,
});
