import { workflow, z } from '@skein/core';
// A workflow exported by an external package: calling it here runs it as a child workflow.
import { welcome } from '@skein-fixtures/greetings';
import { normalizeEmail } from './steps.js';
import { slugify } from '../shared/steps/slugify.js';
import { scoreLead } from './evaluators.js';

export default workflow({
  name: 'onboard',
  description: 'Onboards a customer: normalizes the email, welcomes them (child workflow) and scores the lead.',
  aliases: ['onboard_customer'],
  inputSchema: z.object({ name: z.string().min(1), email: z.string().min(3), locale: z.enum(['en', 'fr', 'de']).optional() }),
  fn: async ({ name, email, locale }) => {
    const normalized = await normalizeEmail({ email });
    const customerId = await slugify(name);
    const { message } = await welcome({ name, locale: locale ?? 'en' });
    const lead = await scoreLead({ email: normalized });
    return { customerId, email: normalized, welcome: message, lead };
  },
});
