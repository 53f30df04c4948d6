import { step, z } from '@skein/core';

export const normalizeEmail = step({
  name: 'normalizeEmail',
  inputSchema: z.object({ email: z.string() }),
  outputSchema: z.string(),
  fn: async ({ email }) => {
    const normalized = email.trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(normalized)) throw new Error(`"${email}" is not an email address`);
    return normalized;
  },
  options: { activityOptions: { retry: { maximumAttempts: 1 } } },
});
