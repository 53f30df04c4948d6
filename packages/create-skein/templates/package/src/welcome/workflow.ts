import { workflow, z } from '@skein/core';
import { composeWelcome } from './steps.js';
import { judgeTone } from './evaluators.js';
import { exclaim } from '../shared/steps/exclaim.js';

/** Welcomes someone: composes a welcome message (a step), judges its tone (an evaluator), and exclaims it when asked. */
export default workflow({
  name: 'welcome',
  description: 'Composes a welcome and judges its tone.',
  // Every field has a default, so `skein workflow run welcome --input '{}'` runs it (an input is an object, even empty).
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
    const message = excited ? await exclaim(welcome) : welcome;
    const tone = await judgeTone({ message });
    return { message, tone };
  },
});
