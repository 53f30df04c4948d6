import { step, z } from '@skein/core';

/** Tells the approver there is something to approve (here: answers the message it would send). */
export const notifyApprover = step({
  name: 'notifyApprover',
  inputSchema: z.object({ request: z.string(), approver: z.string() }),
  outputSchema: z.string(),
  fn: async ({ request, approver }) => `Dear ${approver}, please approve: ${request}`,
});
