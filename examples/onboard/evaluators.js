import { evaluator, z } from '@skein/core';

const FREE_MAIL = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com'];

export const scoreLead = evaluator({
  name: 'scoreLead',
  inputSchema: z.object({ email: z.string() }),
  fn: async ({ email }) => {
    const domain = email.split('@')[1] ?? '';
    const business = !FREE_MAIL.includes(domain);
    return { value: business ? 'business' : 'personal', confidence: business ? 0.7 : 0.9, reasoning: `domain ${domain}` };
  },
});
