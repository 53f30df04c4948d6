import { workflow, z } from '@skein/core';
import { composeWelcome } from './steps.js';
import { judgeTone } from './evaluators.js';
import { shout } from '../shared/steps/shout.js';

/** Welcomes someone: composes a welcome message (a step), judges its tone (an evaluator), and shouts it when asked. */
export default workflow({
  name: 'welcome',
  description: 'Composes a welcome and judges its tone.',
  // Every field has a default, so `skein workflow run welcome` works with no input at all.
  inputSchema: z.object({
    name: z.string().min(1).default('world'),
    excited: z.boolean().default(false),
  }),
  outputSchema: z.object({
    message: z.string(),
    tone: z.object({ value: z.string(), confidence: z.number().optional(), reasoning: z.string().optional() }),
  }),
  options: { activityOptions: { startToCloseTimeout: '30s' } },
  fn: async ({ name, excited }) => {
    const welcome = await composeWelcome({ name });
    const message = excited ? await shout(welcome) : welcome;
    const tone = await judgeTone({ message });
    return { message, tone };
  },
});
